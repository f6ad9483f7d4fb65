import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '@careloop/shared-router';
import Landing from './Landing';
import { SHOWCASE_CARDS, SLIDE_SPEED_MS } from './Showcase';

const renderLanding = () =>
  render(
    <MemoryRouter>
      <Landing />
    </MemoryRouter>,
  );

const dots = () => within(screen.getByRole('group', { name: 'Choose a slide' })).getAllByRole('button');
const currentDot = () => dots().filter((d) => d.getAttribute('aria-current') === 'true');

afterEach(() => {
  jest.useRealTimers();
});

describe('Landing hero and banner', () => {
  it('shows the headline as the single h1 and the blurb', () => {
    renderLanding();
    const h1s = screen.getAllByRole('heading', { level: 1 });
    expect(h1s).toHaveLength(1);
    expect(h1s[0]).toHaveTextContent(/^Empower Healthcare Decisions$/);
    expect(screen.getByText(/intelligent insights and decision support tools/i)).toHaveTextContent(/clinical practice/i);
  });

  it('links Start for free to /patient/signup and Features to /features', () => {
    renderLanding();
    expect(screen.getByRole('link', { name: 'Start for free' })).toHaveAttribute('href', '/patient/signup');
    expect(screen.getByRole('link', { name: 'Features' })).toHaveAttribute('href', '/features');
  });

  it('shows the doctor banner with Get Started to /doctor/signup', () => {
    renderLanding();
    const heading = screen.getByRole('heading', { level: 2, name: 'Elevate Your Medical Practice' });
    const banner = heading.closest('section')!;
    expect(banner).toHaveTextContent(/advanced clinical tools/i);
    expect(banner).toHaveTextContent(/latest medical guidelines/i);
    expect(banner).toHaveTextContent(/expert insights/i);
    expect(within(banner).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/doctor/signup');
  });

  it('has a main landmark and the footer', () => {
    renderLanding();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent(
      `© 2024–${new Date().getFullYear()} CareLoop. All rights reserved.`,
    );
  });
});

describe('Landing showcase', () => {
  it('shows four cards, each with its image, alt text, title and description', () => {
    renderLanding();
    const cards = screen.getAllByTestId('showcase-card');
    expect(cards).toHaveLength(4);
    expect(SHOWCASE_CARDS.map((c) => c.title)).toEqual([
      'Informed Healthcare Decisions',
      'Empowering Clinicians',
      'Revolutionising Patient Care with AI Tools',
      'Collaborative Practice',
    ]);
    cards.forEach((card, i) => {
      const { alt, title, description, image } = SHOWCASE_CARDS[i];
      expect(alt.length).toBeGreaterThan(10);
      const img = within(card).getByRole('img', { name: alt });
      expect(img).toHaveAttribute('src', image);
      expect(image).toMatch(/^data:image\/svg\+xml,/);
      expect(within(card).getByRole('heading', { level: 3, name: title })).toBeInTheDocument();
      expect(card).toHaveTextContent(description);
    });
    // The looping copy of the first card (the track's fifth slide) is hidden from assistive technology.
    expect(screen.getAllByRole('img')).toHaveLength(4);
    const slides = screen.getByTestId('showcase-track').children;
    expect(slides).toHaveLength(5);
    expect(slides[4]).toHaveAttribute('aria-hidden', 'true');
    expect(slides[4]).toHaveTextContent(SHOWCASE_CARDS[0].title);
  });

  it('has four dots, the first current, and no arrow / prev / next buttons', () => {
    renderLanding();
    expect(dots()).toHaveLength(4);
    expect(dots().map((d) => d.getAttribute('aria-label'))).toEqual([
      'Show slide 1',
      'Show slide 2',
      'Show slide 3',
      'Show slide 4',
    ]);
    expect(currentDot()).toEqual([dots()[0]]);
    const all = screen.getAllByRole('button');
    expect(all).toHaveLength(4);
    for (const b of all) expect(b.getAttribute('aria-label') ?? b.textContent).not.toMatch(/prev|next|arrow|‹|›|←|→/i);
  });

  it('makes dot 3 current when clicked and restarts the glide at slide 3', () => {
    renderLanding();
    const trackBefore = screen.getByTestId('showcase-track');
    fireEvent.click(screen.getByRole('button', { name: 'Show slide 3' }));
    expect(screen.getByRole('button', { name: 'Show slide 3' })).toHaveAttribute('aria-current', 'true');
    expect(currentDot()).toHaveLength(1);
    const track = screen.getByTestId('showcase-track');
    expect(track).not.toBe(trackBefore); // restarted
    expect(track.style.animationDelay).toBe(`-${2 * SLIDE_SPEED_MS}ms`);
    expect(track.style.transform).toBe('translateX(-40%)');
  });

  it('advances the current dot every 25000 ms and loops', () => {
    jest.useFakeTimers();
    renderLanding();
    expect(SLIDE_SPEED_MS).toBe(25000);
    act(() => jest.advanceTimersByTime(24999));
    expect(currentDot()[0]).toHaveAccessibleName('Show slide 1');
    act(() => jest.advanceTimersByTime(1));
    expect(currentDot()[0]).toHaveAccessibleName('Show slide 2');
    act(() => jest.advanceTimersByTime(25000));
    expect(currentDot()[0]).toHaveAccessibleName('Show slide 3');
    act(() => jest.advanceTimersByTime(50000));
    expect(currentDot()[0]).toHaveAccessibleName('Show slide 1');
  });

  it('keeps gliding after a jump: from slide 3, 25 s later slide 4, then slide 1', () => {
    jest.useFakeTimers();
    renderLanding();
    act(() => jest.advanceTimersByTime(10000));
    fireEvent.click(screen.getByRole('button', { name: 'Show slide 3' }));
    act(() => jest.advanceTimersByTime(24999));
    expect(currentDot()[0]).toHaveAccessibleName('Show slide 3');
    act(() => jest.advanceTimersByTime(1));
    expect(currentDot()[0]).toHaveAccessibleName('Show slide 4');
    act(() => jest.advanceTimersByTime(25000));
    expect(currentDot()[0]).toHaveAccessibleName('Show slide 1');
    // The glide itself is never restarted by the timer, only by a jump.
    expect(screen.getByTestId('showcase-track').style.animationDelay).toBe(`-${2 * SLIDE_SPEED_MS}ms`);
  });

  it('glides linearly over 4 × 25 s, forever, and stops gliding for reduced motion', () => {
    renderLanding();
    const css = Array.from(document.querySelectorAll('style'))
      .map((s) => s.textContent)
      .join('\n')
      .replace(/\s+/g, '');
    expect(css).toMatch(/animation:[\w-]+100000mslinearinfinite/);
    expect(css).toMatch(/to\{transform:translateX\(-80%\);?\}/);
    expect(css).toMatch(/@media\(prefers-reduced-motion:reduce\)\{[^}]*animation:none/);
    expect(css).not.toMatch(/:hover[^{]*\{[^}]*animation-play-state:paused/);
  });
});
