// Runs from the entry chunk (no shared module imported). A prerendered page (scripts/prerender.mjs:
// `/` and the logins for a visitor, the dashboards as a signed-in role's app shell) shows its first
// screen as HTML in #prerendered — inert, its controls disabled — while the app renders into its root,
// held out of the document; this swaps them once the app's own page is there, in one step, so nothing
// moves and nothing blank shows. A copy meant for someone else is given up at once.

/** What says the app's page is there: a view's heading, an error panel or the start-up alert. */
const READY = 'h1, [data-testid^="remote-"], [role="alert"]';
/** A failure: shown at once, never kept behind the static copy. */
const FAILED = '[data-testid^="remote-"], [role="alert"]';
/**
 * A region still loading its first data (a dashboard's worklist, its profile): shown now, it would
 * grow when the data comes and push what is below it (layout shift); kept out of view, it moves nothing.
 */
const LOADING = '[aria-busy="true"]';
/** How long a page that is there may keep the static copy while a region of it loads. */
export const LOADING_GRACE_MS = 3_000;
/** Never keep the static copy longer than this, whatever happens. */
const LONGEST_MS = 10_000;

/**
 * Returns the element the app renders into. While the static copy is kept, that element is out of
 * the document: the page has one copy of everything at every moment (one heading, one labelled
 * region for assistive technology, for a test's query), and the app's half-loaded page is never seen.
 */
export function takeOverPrerendered(doc: Document = document): HTMLElement {
  const root = doc.getElementById('root');
  if (!root) throw new Error('the shell page has no #root');
  const shown = doc.getElementById('prerendered');
  if (!shown) return root;
  const swap = () => {
    shown.replaceWith(root);
    root.hidden = false;
  };
  // shared-auth's TOKEN_KEY and ROLE_KEY. A visitor's copy (`/`, a login) is not what a signed-in
  // person gets (their dashboard); a role's app shell is only for a session of that role (anyone
  // else is sent to sign in, or to their own pages).
  const token = localStorage.getItem('token');
  const meantFor = shown.dataset.role;
  const keep = meantFor === undefined ? token === null : token !== null && localStorage.getItem('role') === meantFor;
  if (!keep) {
    swap();
    return root;
  }
  root.remove();
  let grace: ReturnType<typeof setTimeout> | undefined;
  const observer = new MutationObserver(() => {
    if (!root.querySelector(READY)) return;
    if (root.querySelector(FAILED) || !root.querySelector(LOADING)) return done();
    grace ??= setTimeout(done, LOADING_GRACE_MS);
  });
  const timer = setTimeout(done, LONGEST_MS);
  function done() {
    observer.disconnect();
    clearTimeout(timer);
    clearTimeout(grace);
    swap();
  }
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
  return root;
}
