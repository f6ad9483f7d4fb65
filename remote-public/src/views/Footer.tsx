import { Link } from '@careloop/shared-router';
import styled from 'styled-components';
import { CONTACT_EMAIL } from '@careloop/shared-contracts';
import { theme } from '@careloop/shared-ui';

export const FOOTER_LINKS: { label: string; to: string }[] = [
  { label: 'For Clinicians', to: '/doctor/signup' },
  { label: 'Clinical Guidelines', to: '/features#clinical-guidelines' },
  { label: 'Insights', to: '/features#insights' },
  { label: 'Resources', to: '/features#resources' },
  { label: 'About', to: '/about' },
  { label: 'Support', to: '/contact' },
];

/** From the year CareLoop began to the current one (the build's year on a prerendered page). */
export const copyright = (now = new Date()) => `© 2024–${now.getFullYear()} CareLoop. All rights reserved.`;

/** The mission every public page states (SPEC §1): in the footer, so no page can leave it out. */
export const MISSION =
  'Our mission is to support clinical decisions: to give doctors and patients the shared, up-to-date information they need to choose the right care together.';

const Bar = styled.footer`
  background: ${theme.color.primaryDark};
  color: #e6f2f1;
  margin-top: 3rem;
`;

const Inner = styled.div`
  max-width: 1100px;
  margin: 0 auto;
  padding: 2rem 1rem 1.25rem;
  display: grid;
  gap: 1.5rem;
  grid-template-columns: 1fr;

  @media (min-width: 720px) {
    grid-template-columns: minmax(0, 1fr) auto;
    align-items: start;
  }
`;

const Brand = styled.p`
  margin: 0 0 0.35rem;
  font-weight: 800;
  font-size: 1.25rem;
  color: #ffffff;
`;

const Tagline = styled.p`
  margin: 0 0 0.5rem;
  max-width: 34rem;
  font-size: 0.95rem;
  a {
    color: #ffffff;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
`;

const LinkList = styled.ul`
  list-style: none;
  margin: 1rem 0 0;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem 1.25rem;

  a {
    display: inline-block;
    padding: 0.3rem 0;
    color: #ffffff;
    text-decoration: none;
    font-weight: 600;
  }
  a:hover {
    text-decoration: underline;
    text-underline-offset: 4px;
  }
`;

const Legal = styled.p`
  max-width: 1100px;
  margin: 0 auto;
  padding: 1rem;
  border-top: 1px solid rgba(255, 255, 255, 0.2);
  font-size: 0.9rem;
  text-align: center;
`;

/** The public pages' footer (SPEC §1): the mission, the contact e-mail, six links, the copyright line (no social-media icons: CareLoop has no accounts to link to). */
export function Footer() {
  return (
    <Bar>
      <Inner>
        <div>
          <Brand>CareLoop</Brand>
          <Tagline>{MISSION}</Tagline>
          <Tagline>
            Write to us: <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
          </Tagline>
          <nav aria-label="Footer">
            <LinkList>
              {FOOTER_LINKS.map(({ label, to }) => (
                <li key={label}>
                  <Link to={to}>{label}</Link>
                </li>
              ))}
            </LinkList>
          </nav>
        </div>
      </Inner>
      <Legal>{copyright()}</Legal>
    </Bar>
  );
}

export default Footer;
