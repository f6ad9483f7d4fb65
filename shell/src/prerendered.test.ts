import { LOADING_GRACE_MS, takeOverPrerendered } from './prerendered';

/** A prerendered page's body: the static first screen shown, the app's root hidden. */
function landingPage() {
  document.body.innerHTML = '<div id="prerendered"><h1>Empower Healthcare Decisions</h1></div><div id="root" hidden></div>';
}
/** The app's page is on screen, alone: the copy gone, the root in the document and shown. */
function appShown(root: HTMLElement) {
  expect(document.getElementById('prerendered')).toBeNull();
  expect(root.isConnected).toBe(true);
  expect(root.hidden).toBe(false);
}
/** The static copy is on screen, alone: what the app renders is out of the document. */
function copyShown(root: HTMLElement) {
  expect(document.getElementById('prerendered')).not.toBeNull();
  expect(root.isConnected).toBe(false);
}
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  localStorage.clear();
  jest.useRealTimers();
});

test("keeps the static screen until the app's own page has a heading, then swaps in one step", async () => {
  landingPage();
  const root = takeOverPrerendered();
  // the shell's frame renders first: not yet the page
  root.innerHTML = '<header><nav aria-label="Main"></nav></header><main></main>';
  await settled();
  copyShown(root);
  // one heading in the document while the app renders its own
  expect(document.querySelectorAll('h1')).toHaveLength(1);
  root.querySelector('main')!.innerHTML = '<h1>Empower Healthcare Decisions</h1>';
  await settled();
  appShown(root);
  expect(document.querySelectorAll('h1')).toHaveLength(1);
  expect(document.body.firstElementChild).toBe(root);
});

test('an error panel or the start-up alert also ends it: a failure is never hidden behind the static copy', async () => {
  landingPage();
  const root = takeOverPrerendered();
  root.innerHTML = '<p role="alert">CareLoop could not start</p>';
  await settled();
  appShown(root);
});

test('a page whose regions still load their first data keeps the static copy until they have it: nothing moves in view', async () => {
  landingPage();
  const root = takeOverPrerendered();
  root.innerHTML =
    '<main><h1>Doctor dashboard</h1><section aria-label="Worklist" aria-busy="true"></section><section aria-busy="true"></section></main>';
  await settled();
  copyShown(root);
  // the half-loaded page is nowhere a query (assistive technology, a test) can find it twice
  expect(document.querySelectorAll('[aria-label="Worklist"]')).toHaveLength(0);
  const [worklist, profile] = root.querySelectorAll('section');
  worklist.setAttribute('aria-busy', 'false');
  await settled();
  copyShown(root);
  profile.removeAttribute('aria-busy');
  await settled();
  appShown(root);
});

test('a region that keeps loading holds the static copy 3 s at most; a failure is shown at once', async () => {
  jest.useFakeTimers();
  landingPage();
  const root = takeOverPrerendered();
  root.innerHTML = '<main><h1>Doctor dashboard</h1><section aria-busy="true"></section></main>';
  await jest.advanceTimersByTimeAsync(LOADING_GRACE_MS - 1);
  copyShown(root);
  await jest.advanceTimersByTimeAsync(1);
  appShown(root);

  landingPage();
  const second = takeOverPrerendered();
  second.innerHTML =
    '<main><h1>Doctor dashboard</h1><section aria-busy="true"></section><p role="alert">The worklist could not be loaded</p></main>';
  await jest.advanceTimersByTimeAsync(0);
  appShown(second);
});

test("a signed-in visitor never sees the landing: `/` is their dashboard, the app's root is shown at once", () => {
  localStorage.setItem('token', 't');
  landingPage();
  appShown(takeOverPrerendered());
});

test('gives up the static copy after 10 s whatever happens', () => {
  jest.useFakeTimers();
  landingPage();
  const root = takeOverPrerendered();
  jest.advanceTimersByTime(9_999);
  copyShown(root);
  jest.advanceTimersByTime(1);
  appShown(root);
});

test('does nothing on the plain shell page (every deep link)', () => {
  document.body.innerHTML = '<div id="root"></div>';
  const root = takeOverPrerendered();
  expect(root).toBe(document.getElementById('root'));
  expect(root.hidden).toBe(false);
});

describe("a signed-in role's app shell (the dashboards)", () => {
  function dashboardShell(role: string) {
    document.body.innerHTML = `<div id="prerendered" data-role="${role}"><h1>Patient dashboard</h1></div><div id="root" hidden></div>`;
  }

  test("is kept for a session of its role until the app's page is there", async () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('role', 'patient');
    dashboardShell('patient');
    const root = takeOverPrerendered();
    copyShown(root);
    root.innerHTML = '<main><h1>Patient dashboard</h1></main>';
    await settled();
    appShown(root);
  });

  test.each([
    ['no session (sent to sign in)', null, null],
    ['a session of the other role', 't', 'doctor'],
    ['a token with no role stored', 't', null],
  ])('is given up at once for %s', (_, token, role) => {
    if (token) localStorage.setItem('token', token);
    if (role) localStorage.setItem('role', role);
    dashboardShell('patient');
    appShown(takeOverPrerendered());
  });
});
