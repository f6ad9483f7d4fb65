import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/** "Medical record — Maria Lopez — CareLoop": what the page is, whom it is about, the product (WCAG 2.4.2). */
export function documentTitle(...parts: (string | undefined)[]): string {
  return [...parts.filter((p): p is string => !!p), 'CareLoop'].join(' — ');
}

// A context the shell provides (around each route's view) and the remotes' views read: it lives in
// shared-auth, the one singleton of the page's own packages, so every app reads the same one
// (shared-ui is built into each app: a context there would be one per app).
const SetSubject = createContext<((subject: string | undefined) => void) | null>(null);

/**
 * Gives the page its title from its route (`RemoteRoute.title`); a view that shows one person adds
 * them with usePageSubject. The subject lives here, so the title is written in one effect, in one order.
 */
export function RouteTitle({ title, children }: { title: string | undefined; children: ReactNode }) {
  const [subject, setSubject] = useState<string | undefined>();
  useEffect(() => {
    document.title = documentTitle(title, subject);
  }, [title, subject]);
  return <SetSubject.Provider value={setSubject}>{children}</SetSubject.Provider>;
}

/** Names the person the page is about in its title, once known (a patient's name for a doctor). */
export function usePageSubject(subject: string | undefined) {
  const set = useContext(SetSubject);
  useEffect(() => {
    // no subject: leave the title alone (another part of the page may name one)
    if (subject === undefined) return;
    set?.(subject);
    return () => set?.(undefined);
  }, [set, subject]);
}
