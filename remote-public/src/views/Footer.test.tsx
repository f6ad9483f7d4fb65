import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '@careloop/shared-router';
import { Footer } from './Footer';

const renderFooter = () =>
  render(
    <MemoryRouter>
      <Footer />
    </MemoryRouter>,
  );

describe('Footer', () => {
  it('has the six links, About to /about and Support to /contact', () => {
    renderFooter();
    const nav = screen.getByRole('navigation', { name: 'Footer' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      'For Clinicians',
      'Clinical Guidelines',
      'Insights',
      'Resources',
      'About',
      'Support',
    ]);
    expect(within(nav).getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    expect(within(nav).getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/contact');
    for (const l of links) expect(l.getAttribute('href')).toMatch(/^\/[a-z]/);
  });

  it('has four labelled social-media links with an inline icon', () => {
    renderFooter();
    const list = screen.getByRole('list', { name: 'CareLoop on social media' });
    const social = within(list).getAllByRole('link');
    expect(social).toHaveLength(4);
    expect(social.map((a) => a.getAttribute('aria-label'))).toEqual([
      'CareLoop on Facebook',
      'CareLoop on X (Twitter)',
      'CareLoop on LinkedIn',
      'CareLoop on Instagram',
    ]);
    for (const a of social) {
      expect(a).toHaveAttribute('rel', 'noopener noreferrer');
      expect(a.getAttribute('href')).not.toMatch(/^https?:/);
      const svg = a.querySelector('svg');
      expect(svg).not.toBeNull();
      expect(svg).toHaveAttribute('aria-hidden', 'true');
    }
  });

  it('shows the 2024 copyright line in the contentinfo landmark', () => {
    renderFooter();
    expect(within(screen.getByRole('contentinfo')).getByText('© 2024 CareLoop. All rights reserved.')).toBeInTheDocument();
  });
});
