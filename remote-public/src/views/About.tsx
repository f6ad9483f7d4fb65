import { ButtonLink, Row } from '@careloop/shared-ui';
import { ChartIcon, HeartHandIcon, ShieldIcon, StethoscopeIcon } from './icons';
import { CardGrid, IconBadge, InfoCard, Prose, PublicPage, Section, SectionTitle, MISSION } from './PublicPage';

const PRINCIPLES = [
  {
    Icon: StethoscopeIcon,
    title: 'Clinicians stay in charge',
    text: 'CareLoop supports clinical judgement and never replaces it. Every record, prescription and summary is reviewed and owned by the treating doctor.',
  },
  {
    Icon: ChartIcon,
    title: 'The full picture, in one place',
    text: 'Medical history, examinations, investigations, treatment and files are kept together, so decisions are based on complete information.',
  },
  {
    Icon: HeartHandIcon,
    title: 'Patients as partners',
    text: 'Patients see their own records, prescriptions and summaries, and choose which doctors they connect with.',
  },
  {
    Icon: ShieldIcon,
    title: 'Privacy by design',
    text: 'Access is limited to connected doctors and patients, and every account can be protected with two-factor authentication.',
  },
];

/** /about: who CareLoop is and why it exists. */
export default function About() {
  return (
    <PublicPage eyebrow="About CareLoop" title="Supporting better clinical decisions" lead={MISSION}>
      <Section aria-labelledby="about-story">
        <SectionTitle id="about-story">Why we built CareLoop</SectionTitle>
        <Prose>
          <p>
            Good care depends on good information. Too often, a patient&apos;s history is scattered across paper notes, e-mails
            and files, and the people caring for them do not see the same picture.
          </p>
          <p>
            CareLoop is a clinical decision-support and care-coordination platform. Doctors create structured medical records and
            prescriptions, generate concise record summaries and schedule reminders; patients keep their medical files, records
            and prescriptions in one secure place and connect with the doctors who treat them.
          </p>
        </Prose>
      </Section>
      <Section aria-labelledby="about-principles">
        <SectionTitle id="about-principles">What guides us</SectionTitle>
        <CardGrid>
          {PRINCIPLES.map(({ Icon, title, text }) => (
            <InfoCard key={title}>
              <IconBadge>
                <Icon />
              </IconBadge>
              <h3>{title}</h3>
              <p>{text}</p>
            </InfoCard>
          ))}
        </CardGrid>
      </Section>
      <Section aria-labelledby="about-next">
        <SectionTitle id="about-next">Learn more</SectionTitle>
        <Prose>
          <p>Discover what patients and doctors can do with CareLoop, or meet the team behind it.</p>
        </Prose>
        <Row>
          <ButtonLink to="/features">Explore features</ButtonLink>
          <ButtonLink to="/team" $variant="secondary">
            Meet the team
          </ButtonLink>
        </Row>
      </Section>
    </PublicPage>
  );
}
