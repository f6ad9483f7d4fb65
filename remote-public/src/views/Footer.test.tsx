import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '@careloop/shared-router';
import { Footer, copyright } from './Footer';

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

  it('links each label to the section it names, and no link goes nowhere', () => {
    renderFooter();
    const nav = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(nav).getByRole('link', { name: 'Clinical Guidelines' })).toHaveAttribute(
      'href',
      '/features#clinical-guidelines',
    );
    expect(within(nav).getByRole('link', { name: 'Insights' })).toHaveAttribute('href', '/features#insights');
    expect(within(nav).getByRole('link', { name: 'Resources' })).toHaveAttribute('href', '/features#resources');
    for (const a of screen.getByRole('contentinfo').querySelectorAll('a')) expect(a.getAttribute('href')).not.toMatch(/^#?$/);
  });

  it('says the years from 2024 to the current one in the contentinfo landmark', () => {
    renderFooter();
    const year = new Date().getFullYear();
    expect(
      within(screen.getByRole('contentinfo')).getByText(`© 2024–${year} CareLoop. All rights reserved.`),
    ).toBeInTheDocument();
    expect(copyright(new Date('2031-06-01'))).toBe('© 2024–2031 CareLoop. All rights reserved.');
  });
});
