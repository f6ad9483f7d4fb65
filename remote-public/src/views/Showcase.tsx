import { useCallback, useEffect, useState } from 'react';
import styled, { keyframes } from 'styled-components';
import { theme } from '@careloop/shared-ui';
import { aiPatientCareImage, collaborativePracticeImage, empoweringCliniciansImage, informedDecisionsImage } from './images';

/** SPEC §3 "Showcase card". */
export interface ShowcaseCard {
  image: string;
  alt: string;
  title: string;
  description: string;
}

/** SPEC §9: one slide shown, one scrolled, 25 000 ms per slide, autoplay speed 0, linear easing. */
export const SLIDES_TO_SHOW = 1;
export const SLIDES_TO_SCROLL = 1;
export const SLIDE_SPEED_MS = 25000;
export const AUTOPLAY_SPEED_MS = 0;
/** One slide's share of the loop: the glide itself plus the (zero) autoplay wait. */
const SLIDE_PERIOD_MS = SLIDE_SPEED_MS + AUTOPLAY_SPEED_MS;

export const SHOWCASE_CARDS: ShowcaseCard[] = [
  {
    image: informedDecisionsImage,
    alt: 'A patient chart on a clipboard with a rising trend line and a confirmation tick',
    title: 'Informed Healthcare Decisions',
    description:
      'Medical records, files and prescriptions in one place, so every decision starts from the complete clinical picture.',
  },
  {
    image: empoweringCliniciansImage,
    alt: 'A clinician wearing a stethoscope beside a progress chart',
    title: 'Empowering Clinicians',
    description:
      'Structured record creation, prescriptions and patient follow-up give doctors more time for the conversations that matter.',
  },
  {
    image: aiPatientCareImage,
    alt: 'A heart with a pulse line at the centre of a network of connected data points',
    title: 'Revolutionising Patient Care with AI Tools',
    description:
      'Generate a concise summary of a medical record in one step, so the key findings are easy to review and to share with the patient.',
  },
  {
    image: collaborativePracticeImage,
    alt: 'Two care-team members sharing a medical record and exchanging messages',
    title: 'Collaborative Practice',
    description:
      'Doctors and patients connect securely, share what matters and stay on the same care plan, with reminders that keep it on track.',
  },
];

// The track holds the cards plus a copy of the first: gliding to the copy, then snapping back
// to the identical first card, makes the loop seamless.
const glides = new Map<number, ReturnType<typeof keyframes>>();
const glide = (count: number) => {
  let frames = glides.get(count);
  if (!frames) {
    frames = keyframes`
      from { transform: translateX(0); }
      to { transform: translateX(-${(100 * count) / (count + 1)}%); }
    `;
    glides.set(count, frames);
  }
  return frames;
};

const Region = styled.section`
  max-width: 1100px;
  margin: 0 auto;
  padding: 2.5rem 1rem;
`;

const SectionTitle = styled.h2`
  text-align: center;
  font-size: clamp(1.4rem, 1.1rem + 1.2vw, 1.9rem);
  margin: 0 0 1.5rem;
  color: ${theme.color.text};
`;

const Viewport = styled.div`
  overflow: hidden;
  border-radius: ${theme.radius};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  box-shadow: ${theme.shadow};
`;

const Track = styled.ul<{ $count: number }>`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  width: ${({ $count }) => ($count + 1) * 100}%;
  animation: ${({ $count }) => glide($count)} ${({ $count }) => $count * SLIDE_PERIOD_MS}ms linear infinite;
  will-change: transform;

  @media (prefers-reduced-motion: reduce) {
    /* No glide: the inline transform shows the current slide, the dots still switch. */
    animation: none;
  }
`;

const Slide = styled.li<{ $count: number }>`
  flex: 0 0 ${({ $count }) => 100 / ($count + 1)}%;
  display: grid;
  grid-template-columns: 1fr;
  gap: 1.25rem;
  align-items: center;
  padding: 1.25rem;

  @media (min-width: 720px) {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    gap: 2rem;
    padding: 2rem 2.5rem;
  }
`;

const Picture = styled.img`
  display: block;
  width: 100%;
  max-width: 480px;
  height: auto;
  aspect-ratio: 8 / 5;
  margin: 0 auto;
`;

const CardTitle = styled.h3`
  margin: 0 0 0.5rem;
  font-size: clamp(1.15rem, 1rem + 0.6vw, 1.45rem);
  color: ${theme.color.primaryDark};
`;

const CardText = styled.p`
  margin: 0;
  color: ${theme.color.muted};
  font-size: 1.02rem;
`;

const Dots = styled.div`
  display: flex;
  justify-content: center;
  gap: 0.35rem;
  margin-top: 1rem;
`;

const Dot = styled.button`
  /* 28 px target around a 12 px dot. */
  width: 28px;
  height: 28px;
  padding: 0;
  border: 0;
  background: transparent;
  cursor: pointer;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  border-radius: 50%;

  &::before {
    content: '';
    width: 12px;
    height: 12px;
    border-radius: 50%;
    border: 2px solid ${theme.color.primary};
    background: transparent;
    transition: background-color 0.2s;
  }
  &[aria-current='true']::before {
    background: ${theme.color.primary};
  }
  &:hover::before {
    background: ${theme.color.primarySoft};
  }
  &[aria-current='true']:hover::before {
    background: ${theme.color.primaryDark};
  }
`;

/**
 * The landing showcase (SPEC §4): a continuous linear glide, one card per 25 s, looping,
 * no pause on hover, no arrows, one dot per card. A dot jumps to its card and the glide goes on.
 */
export function Showcase({ cards = SHOWCASE_CARDS }: { cards?: ShowcaseCard[] }) {
  const count = cards.length;
  // The card the current run of the animation started from, and a counter that restarts it.
  const [origin, setOrigin] = useState(0);
  const [run, setRun] = useState(0);
  const [active, setActive] = useState(0);

  // Follow the glide: the current card is the one the track is leaving, counted from the
  // run's start, so a late timer (background tab) never drifts from the animation.
  useEffect(() => {
    if (count < 2) return;
    const startedAt = Date.now();
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const elapsed = Date.now() - startedAt;
      setActive((origin + Math.floor(elapsed / SLIDE_PERIOD_MS)) % count);
      timer = setTimeout(tick, SLIDE_PERIOD_MS - (elapsed % SLIDE_PERIOD_MS));
    };
    timer = setTimeout(tick, SLIDE_PERIOD_MS);
    return () => clearTimeout(timer);
  }, [origin, run, count]);

  const goTo = useCallback((index: number) => {
    setOrigin(index);
    setActive(index);
    setRun((r) => r + 1);
  }, []);

  if (count === 0) return null;
  const slides = count > 1 ? [...cards, cards[0]] : cards;

  return (
    <Region aria-roledescription="carousel" aria-labelledby="showcase-title">
      <SectionTitle id="showcase-title">Why clinicians and patients choose CareLoop</SectionTitle>
      <Viewport>
        <Track
          key={run}
          $count={count}
          aria-live="off"
          data-testid="showcase-track"
          style={{
            // A jump restarts the glide part-way through the loop, at the chosen card.
            animationDelay: `-${origin * SLIDE_PERIOD_MS}ms`,
            // Used when the glide is off (reduced motion): the current card, still.
            transform: `translateX(-${(100 * active) / (count + 1)}%)`,
          }}
        >
          {slides.map((card, i) => {
            const isCopy = i === count;
            return (
              <Slide
                key={isCopy ? 'copy' : card.title}
                $count={count}
                aria-hidden={isCopy ? true : undefined}
                aria-roledescription={isCopy ? undefined : 'slide'}
                aria-label={isCopy ? undefined : `${i + 1} of ${count}`}
                data-testid={isCopy ? undefined : 'showcase-card'}
              >
                <Picture src={card.image} alt={isCopy ? '' : card.alt} width={480} height={300} />
                <div>
                  {isCopy ? <CardTitle as="p">{card.title}</CardTitle> : <CardTitle>{card.title}</CardTitle>}
                  <CardText>{card.description}</CardText>
                </div>
              </Slide>
            );
          })}
        </Track>
      </Viewport>
      {count > 1 && (
        <Dots role="group" aria-label="Choose a slide">
          {cards.map((card, i) => (
            <Dot
              key={card.title}
              type="button"
              aria-label={`Show slide ${i + 1}`}
              aria-current={i === active ? 'true' : undefined}
              onClick={() => goTo(i)}
            />
          ))}
        </Dots>
      )}
    </Region>
  );
}
