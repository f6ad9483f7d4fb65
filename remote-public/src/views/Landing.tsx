import styled from 'styled-components';
import { ButtonLink, theme } from '@careloop/shared-ui';
import { Footer } from './Footer';
import { CheckIcon } from './icons';
import { PublicMain } from './PublicPage';
import { Showcase } from './Showcase';

const Hero = styled.section`
  background:
    radial-gradient(circle at 85% 15%, rgba(29, 78, 216, 0.08), transparent 45%),
    linear-gradient(180deg, ${theme.color.primarySoft} 0%, ${theme.color.page} 100%);
  border-bottom: 1px solid ${theme.color.border};
`;

const HeroInner = styled.div`
  max-width: 1100px;
  margin: 0 auto;
  padding: 3rem 1rem 2.75rem;
  text-align: center;

  @media (min-width: 720px) {
    padding: 5rem 1rem 4.5rem;
  }
`;

const Headline = styled.h1`
  margin: 0 auto 1rem;
  max-width: 18ch;
  font-size: clamp(2.1rem, 1.4rem + 3.2vw, 3.5rem);
  line-height: 1.1;
  letter-spacing: -0.01em;
  color: ${theme.color.text};
`;

const Blurb = styled.p`
  margin: 0 auto 1.75rem;
  max-width: 40rem;
  font-size: clamp(1.05rem, 0.98rem + 0.35vw, 1.25rem);
  color: ${theme.color.muted};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 0.75rem;

  a {
    min-width: 10rem;
    padding: 0.75rem 1.5rem;
  }
`;

const Points = styled.ul`
  list-style: none;
  margin: 2rem auto 0;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 0.5rem 1.5rem;
  color: ${theme.color.text};
  font-weight: 600;
  font-size: 0.95rem;

  li {
    display: inline-flex;
    align-items: center;
    gap: 0.4rem;
  }
  svg {
    color: ${theme.color.primary};
  }
`;

const DoctorBanner = styled.section`
  max-width: 1100px;
  margin: 1rem auto 0;
  padding: 0 1rem;
`;

const BannerCard = styled.div`
  display: grid;
  gap: 1.25rem;
  align-items: center;
  padding: 2rem 1.5rem;
  border-radius: ${theme.radius};
  background: linear-gradient(120deg, ${theme.color.primaryDark} 0%, ${theme.color.primary} 100%);
  color: #ffffff;

  @media (min-width: 720px) {
    grid-template-columns: minmax(0, 1fr) auto;
    padding: 2.5rem 3rem;
  }

  h2 {
    margin: 0 0 0.5rem;
    font-size: clamp(1.4rem, 1.1rem + 1.2vw, 2rem);
  }
  p {
    margin: 0;
    max-width: 38rem;
    color: #e6f2f1;
    font-size: 1.05rem;
  }
`;

const BannerButton = styled(ButtonLink)`
  background: #ffffff;
  border-color: #ffffff;
  color: ${theme.color.primaryDark};
  padding: 0.75rem 1.75rem;
  justify-self: start;

  &:focus-visible {
    outline-color: #ffffff;
  }
`;

/** The public landing page (SPEC §1, §2 "Landing"). */
export default function Landing() {
  return (
    <>
      <PublicMain>
        <Hero aria-labelledby="landing-title">
          <HeroInner>
            <Headline id="landing-title">Empower Healthcare Decisions</Headline>
            <Blurb>
              CareLoop brings intelligent insights and decision support tools to clinical practice, so doctors and patients can
              make confident, well-informed care decisions together.
            </Blurb>
            <Actions>
              <ButtonLink to="/patient/signup">Start for free</ButtonLink>
              <ButtonLink to="/features" $variant="secondary">
                Features
              </ButtonLink>
            </Actions>
            <Points aria-label="Highlights">
              <li>
                <CheckIcon /> Shared medical records
              </li>
              <li>
                <CheckIcon /> Record summaries
              </li>
              <li>
                <CheckIcon /> Two-factor security
              </li>
            </Points>
          </HeroInner>
        </Hero>

        <Showcase />

        <DoctorBanner aria-labelledby="doctor-banner-title">
          <BannerCard>
            <div>
              <h2 id="doctor-banner-title">Elevate Your Medical Practice</h2>
              <p>
                Advanced clinical tools, the latest medical guidelines and expert insights, brought together to support every
                decision you make for your patients.
              </p>
            </div>
            <BannerButton to="/doctor/signup">Get Started</BannerButton>
          </BannerCard>
        </DoctorBanner>
      </PublicMain>
      <Footer />
    </>
  );
}
