import { useEffect } from 'react';
import { Link } from '@careloop/shared-router';
import styled from 'styled-components';
import type { Role } from '@careloop/shared-contracts';
import { theme, type RemoteRoute } from '@careloop/shared-ui';
import { loadRouteList, useLoadedRouteLists } from './routeLists';

const Aside = styled.aside`
  width: 230px;
  flex-shrink: 0;
  padding: 1.5rem 0.75rem;
  border-right: 1px solid ${theme.color.border};
  background: ${theme.color.surface};
  /* Wide screens only (SPEC §2). */
  @media (max-width: ${theme.wide}) {
    display: none;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  a {
    display: block;
    padding: 0.55rem 0.8rem;
    border-radius: 8px;
    color: ${theme.color.text};
    text-decoration: none;
  }
  a:hover {
    background: ${theme.color.primarySoft};
    color: ${theme.color.primaryDark};
  }
`;

export interface SidebarEntry {
  text: string;
  to: string;
  icon: string;
}

/**
 * The role's entries, as the remotes' route lists declare them (`nav` on a route whose `access` is the
 * role), lowest `order` first. A list that did not load adds none; the others still show.
 */
export function sidebarEntries(lists: Iterable<RemoteRoute[]>, role: Role): SidebarEntry[] {
  const declared: (SidebarEntry & { order: number })[] = [];
  for (const list of lists)
    for (const { path, access, nav } of list)
      // A link needs a URL of its own: a route with parameters cannot be an entry.
      if (nav && access === role && !path.includes(':'))
        declared.push({ text: nav.label, to: path, icon: nav.icon, order: nav.order });
  return declared.sort((a, b) => a.order - b.order).map(({ text, to, icon }) => ({ text, to, icon }));
}

/**
 * The account sidebar of the signed-in role. Its entries live on the role's own remote's routes, so
 * the sidebar asks for that list (the load RemoteView shares); any other list the page has loaded
 * adds the entries it declares for the role.
 */
export function Sidebar({ role }: { role: Role }) {
  const lists = useLoadedRouteLists();
  useEffect(() => {
    // A list that fails shows its panel where its pages open; here it only adds no entries.
    loadRouteList(role).catch(() => undefined);
  }, [role]);
  return (
    <Aside aria-label="Account">
      <ul>
        {sidebarEntries(lists.values(), role).map((e) => (
          <li key={e.to}>
            <Link to={e.to} data-icon={e.icon}>
              {e.text}
            </Link>
          </li>
        ))}
      </ul>
    </Aside>
  );
}
