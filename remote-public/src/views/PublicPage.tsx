import type { ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '@careloop/shared-ui';
import { Footer, MISSION } from './Footer';

export { MISSION };

/** The page's main landmark; full width, sections centre their own content. */
export const PublicMain = styled.main`
  display: block;
  min-width: 0;
`;

const Intro = styled.header`
  background: linear-gradient(180deg, ${theme.color.primarySoft} 0%, ${theme.color.page} 100%);
  border-bottom: 1px solid ${theme.color.border};
`;

const IntroInner = styled.div`
  max-width: 1100px;
  margin: 0 auto;
  padding: 2.5rem 1rem 2rem;

  @media (min-width: 720px) {
    padding: 3.5rem 1rem 2.75rem;
  }
`;

const Eyebrow = styled.p`
  margin: 0 0 0.5rem;
  font-size: 0.85rem;
  font-weight: 700;
  letter-spacing: 0.08em;
  text-transform: uppercase;
  color: ${theme.color.primary};
`;

const Title = styled.h1`
  margin: 0 0 0.75rem;
  font-size: clamp(1.8rem, 1.3rem + 2vw, 2.6rem);
  line-height: 1.15;
  color: ${theme.color.text};
`;

const Lead = styled.p`
  margin: 0;
  max-width: 46rem;
  font-size: clamp(1.02rem, 0.95rem + 0.3vw, 1.15rem);
  color: ${theme.color.muted};
`;

export const Section = styled.section`
  max-width: 1100px;
  margin: 0 auto;
  padding: 2rem 1rem 0.5rem;
`;

export const SectionTitle = styled.h2`
  margin: 0 0 1rem;
  font-size: clamp(1.3rem, 1.1rem + 0.8vw, 1.65rem);
  color: ${theme.color.text};
`;

export const Prose = styled.div`
  max-width: 46rem;
  p {
    margin: 0 0 1rem;
  }
`;

export const CardGrid = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 1rem;
  grid-template-columns: 1fr;

  @media (min-width: 640px) {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
  @media (min-width: 960px) {
    grid-template-columns: repeat(3, minmax(0, 1fr));
  }
`;

export const InfoCard = styled.li`
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow};
  padding: 1.25rem;

  h3 {
    margin: 0.6rem 0 0.4rem;
    font-size: 1.1rem;
    color: ${theme.color.primaryDark};
  }
  p {
    margin: 0;
    color: ${theme.color.muted};
  }
`;

export const IconBadge = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  border-radius: 12px;
  background: ${theme.color.primarySoft};
  color: ${theme.color.primary};

  svg {
    width: 24px;
    height: 24px;
  }
`;

/**
 * A static public page: an intro with the page's single h1, the content, then the footer.
 */
export function PublicPage({
  eyebrow,
  title,
  lead,
  children,
}: {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <>
      <PublicMain>
        <Intro>
          <IntroInner>
            {eyebrow && <Eyebrow>{eyebrow}</Eyebrow>}
            <Title>{title}</Title>
            {lead && <Lead>{lead}</Lead>}
          </IntroInner>
        </Intro>
        {children}
      </PublicMain>
      <Footer />
    </>
  );
}

export default PublicPage;
