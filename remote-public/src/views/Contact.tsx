import styled from 'styled-components';
import { CONTACT_EMAIL } from '@careloop/shared-contracts';
import { theme } from '@careloop/shared-ui';
import { MailIcon } from './icons';
import { IconBadge, Prose, PublicPage, Section, SectionTitle, MISSION } from './PublicPage';

const ContactCard = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 1rem;
  align-items: center;
  max-width: 46rem;
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow};
  padding: 1.25rem 1.5rem;

  p {
    margin: 0;
  }
`;

const EmailLink = styled.a`
  font-size: clamp(1.05rem, 1rem + 0.4vw, 1.25rem);
  font-weight: 700;
  color: ${theme.color.primary};
  overflow-wrap: anywhere;
`;

const Notice = styled.p`
  max-width: 46rem;
  margin: 0;
  padding: 1rem 1.25rem;
  border-left: 4px solid ${theme.color.danger};
  background: #fdf2f2;
  border-radius: 0 ${theme.radius} ${theme.radius} 0;
`;

/** /contact: how to reach CareLoop. */
export default function Contact() {
  return (
    <PublicPage eyebrow="Contact" title="Get in touch" lead={MISSION}>
      <Section aria-labelledby="contact-email">
        <SectionTitle id="contact-email">Write to us</SectionTitle>
        <ContactCard>
          <IconBadge>
            <MailIcon />
          </IconBadge>
          <div>
            <p>Questions, feedback or partnership requests:</p>
            <EmailLink href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</EmailLink>
          </div>
        </ContactCard>
      </Section>
      <Section aria-labelledby="contact-help">
        <SectionTitle id="contact-help">Before you write</SectionTitle>
        <Prose>
          <p>
            Doctors and patients who already use CareLoop: please include the e-mail address of your account, but never send
            passwords, two-factor codes or medical details by e-mail.
          </p>
        </Prose>
        <Notice>CareLoop cannot answer medical questions by e-mail. In an emergency, call your local emergency number.</Notice>
      </Section>
    </PublicPage>
  );
}
