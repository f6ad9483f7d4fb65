// Runs from the entry chunk (no shared module imported). A prerendered page (scripts/prerender.mjs:
// `/` and the logins for a visitor, the dashboards as a signed-in role's app shell) shows its first
// screen as HTML in #prerendered — inert, its controls disabled — while the app renders into a hidden
// #root; this swaps them once the app's own page is there, in one step, so nothing moves and nothing
// blank shows. A copy meant for someone else is given up at once.

/** What says the app's page is there: a view's heading, an error panel or the start-up alert. */
const READY = 'h1, [data-testid^="remote-"], [role="alert"]';
/** Never keep the static copy longer than this, whatever happens. */
const LONGEST_MS = 10_000;

export function takeOverPrerendered(doc: Document = document): void {
  const shown = doc.getElementById('prerendered');
  const root = doc.getElementById('root');
  if (!shown || !root) return;
  const swap = () => {
    shown.remove();
    root.hidden = false;
  };
  // shared-auth's TOKEN_KEY and ROLE_KEY. A visitor's copy (`/`, a login) is not what a signed-in
  // person gets (their dashboard); a role's app shell is only for a session of that role (anyone
  // else is sent to sign in, or to their own pages).
  const token = localStorage.getItem('token');
  const meantFor = shown.dataset.role;
  const keep = meantFor === undefined ? token === null : token !== null && localStorage.getItem('role') === meantFor;
  if (!keep) return swap();
  const observer = new MutationObserver(() => {
    if (root.querySelector(READY)) done();
  });
  const timer = setTimeout(() => done(), LONGEST_MS);
  function done() {
    observer.disconnect();
    clearTimeout(timer);
    swap();
  }
  observer.observe(root, { childList: true, subtree: true });
}
