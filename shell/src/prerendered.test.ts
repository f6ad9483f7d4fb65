import { takeOverPrerendered } from './prerendered';

/** A prerendered page's body: the static first screen shown, the app's root hidden. */
function landingPage() {
  document.body.innerHTML = '<div id="prerendered"><h1>Empower Healthcare Decisions</h1></div><div id="root" hidden></div>';
  return { root: document.getElementById('root')! };
}
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  localStorage.clear();
  jest.useRealTimers();
});

test("keeps the static screen until the app's own page has a heading, then swaps in one step", async () => {
  const { root } = landingPage();
  takeOverPrerendered();
  // the shell's frame renders first: not yet the page
  root.innerHTML = '<header><nav aria-label="Main"></nav></header><main></main>';
  await settled();
  expect(document.getElementById('prerendered')).not.toBeNull();
  expect(root.hidden).toBe(true);
  root.querySelector('main')!.innerHTML = '<h1>Empower Healthcare Decisions</h1>';
  await settled();
  expect(document.getElementById('prerendered')).toBeNull();
  expect(root.hidden).toBe(false);
  expect(document.querySelectorAll('h1')).toHaveLength(1);
});

test('an error panel or the start-up alert also ends it: a failure is never hidden behind the static copy', async () => {
  const { root } = landingPage();
  takeOverPrerendered();
  root.innerHTML = '<p role="alert">CareLoop could not start</p>';
  await settled();
  expect(document.getElementById('prerendered')).toBeNull();
  expect(root.hidden).toBe(false);
});

test("a signed-in visitor never sees the landing: `/` is their dashboard, the app's root is shown at once", () => {
  localStorage.setItem('token', 't');
  const { root } = landingPage();
  takeOverPrerendered();
  expect(document.getElementById('prerendered')).toBeNull();
  expect(root.hidden).toBe(false);
});

test('gives up the static copy after 10 s whatever happens', () => {
  jest.useFakeTimers();
  const { root } = landingPage();
  takeOverPrerendered();
  jest.advanceTimersByTime(9_999);
  expect(root.hidden).toBe(true);
  jest.advanceTimersByTime(1);
  expect(document.getElementById('prerendered')).toBeNull();
  expect(root.hidden).toBe(false);
});

test('does nothing on the plain shell page (every deep link)', () => {
  document.body.innerHTML = '<div id="root"></div>';
  takeOverPrerendered();
  expect(document.getElementById('root')!.hidden).toBe(false);
});

describe("a signed-in role's app shell (the dashboards)", () => {
  function dashboardShell(role: string) {
    document.body.innerHTML = `<div id="prerendered" data-role="${role}"><h1>Patient dashboard</h1></div><div id="root" hidden></div>`;
    return { root: document.getElementById('root')! };
  }

  test("is kept for a session of its role until the app's page is there", async () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('role', 'patient');
    const { root } = dashboardShell('patient');
    takeOverPrerendered();
    expect(root.hidden).toBe(true);
    root.innerHTML = '<main><h1>Patient dashboard</h1></main>';
    await settled();
    expect(document.getElementById('prerendered')).toBeNull();
    expect(root.hidden).toBe(false);
  });

  test.each([
    ['no session (sent to sign in)', null, null],
    ['a session of the other role', 't', 'doctor'],
    ['a token with no role stored', 't', null],
  ])('is given up at once for %s', (_, token, role) => {
    if (token) localStorage.setItem('token', token);
    if (role) localStorage.setItem('role', role);
    const { root } = dashboardShell('patient');
    takeOverPrerendered();
    expect(document.getElementById('prerendered')).toBeNull();
    expect(root.hidden).toBe(false);
  });
});
