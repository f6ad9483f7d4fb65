import type { ComponentType, ReactNode } from 'react';
import type { Role } from '@careloop/shared-contracts';
import { RequireSession } from '@careloop/shared-auth';
import { RouteTitle } from './DocumentTitle';
import { SessionHandoff } from './SessionHandoff';

/**
 * A route's entry in the account sidebar, declared once on the route it opens: the shell lists it for
 * the route's `access` role, so a remote adds, moves or drops an entry with its own release.
 */
export interface RemoteNavEntry {
  /** the entry's text (SPEC §2's words) */
  label: string;
  /** a short icon name ('folder', 'pill'); the shell puts it on the link as `data-icon` */
  icon: string;
  /** where the entry sits among every remote's entries for the role: lower first */
  order: number;
}

/**
 * One route a remote owns. Each remote keeps its list in src/routes.ts and exposes it as
 * `./routes`: the shell serves it under the remote's prefixes, the standalone host serves it alone.
 */
export interface RemoteRoute {
  path: string;
  /** what the page is, for its `<title>` ("Medical records" → "Medical records — CareLoop") */
  title: string;
  /** the view, fetched the first time it is shown (a chunk of its own) */
  // Views take their own props (e.g. Login's role), given in `props`.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  view: () => Promise<{ default: ComponentType<any> }>;
  /** who may see it; anyone else is sent to / */
  access?: Role;
  /** reachable before two-factor is on where the api requires it (set-up, profile completion) */
  beforeMfa?: boolean;
  /** also signs in from ?token=<one-time code>&role=… (SPEC §2: the patient dashboard; issue 11) */
  sessionFromQuery?: boolean;
  props?: Record<string, unknown>;
  /** its entry in the account sidebar of the `access` role (a route with `access` and no parameters) */
  nav?: RemoteNavEntry;
}

/** The guards and the title a route asks for, the same in the shell and in a standalone host. */
export function guardRoute({ access, sessionFromQuery, beforeMfa, title }: RemoteRoute, view: ReactNode): ReactNode {
  // A remote released before routes had titles sends none: the page is then just "CareLoop".
  const titled = <RouteTitle title={title}>{view}</RouteTitle>;
  if (!access) return titled;
  const guarded = (
    <RequireSession role={access} beforeMfa={beforeMfa}>
      {titled}
    </RequireSession>
  );
  return sessionFromQuery ? <SessionHandoff role={access}>{guarded}</SessionHandoff> : guarded;
}
