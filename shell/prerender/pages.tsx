// Rendered in Node at build time (scripts/prerender.mjs): the first screen of the pages a phone most
// often opens cold, so it paints before any script has run — `/` and the two logins as a visitor
// sees them, and the two dashboards as the app shell of a signed-in role: the frame and the view in
// its loading state (headings, cards, placeholders; no personal data exists at build time). Each is
// the shell's layout around the view the owning remote's route table gives for the path. The app
// then renders the same page in a hidden root and swaps it in (src/prerendered.ts).
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from '@careloop/shared-router';
import { ServerStyleSheet, ThemeProvider } from 'styled-components';
import { theme } from '@careloop/shared-ui';
import type { Role } from '@careloop/shared-contracts';
import type { RemoteRoute } from '@careloop/shared-ui';
import publicRoutes from '../../remote-public/src/routes';
import patientRoutes from '../../remote-patient/src/routes';
import doctorRoutes from '../../remote-doctor/src/routes';
import { Frame } from '../src/Layout';

/** The pages rendered at build time, with the role they are for (null: a visitor); any other URL gets the plain shell page. */
const PAGES: { path: string; role: Role | null; routes: RemoteRoute[] }[] = [
  { path: '/', role: null, routes: publicRoutes },
  { path: '/login/patient', role: null, routes: publicRoutes },
  { path: '/login/doctor', role: null, routes: publicRoutes },
  { path: '/patient/dashboard', role: 'patient', routes: patientRoutes },
  { path: '/doctor/dashboard', role: 'doctor', routes: doctorRoutes },
];

export interface RenderedPage {
  path: string;
  /** the signed-in role the copy is for; null: a visitor's page */
  role: Role | null;
  html: string;
  /** the styles it needs, as style tags */
  styleTags: string;
}

/** A visitor's first load has nothing stored: the views read storage (the idle sign-out notice) as they render. */
function emptyStorage(): Storage {
  return { length: 0, key: () => null, getItem: () => null, setItem() {}, removeItem() {}, clear() {} };
}

async function renderPage({ path, role, routes }: (typeof PAGES)[number]): Promise<RenderedPage> {
  const route = routes.find((r) => r.path === path);
  if (!route) throw new Error(`no remote route ${path} to prerender`);
  const { default: View } = await route.view();
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(
      sheet.collectStyles(
        <ThemeProvider theme={theme}>
          <QueryClientProvider client={new QueryClient()}>
            <MemoryRouter initialEntries={[path]}>
              {/* as Layout shows the page: a visitor's, or a signed-in role's before its data has come */}
              <Frame role={role}>
                <View {...route.props} />
              </Frame>
            </MemoryRouter>
          </QueryClientProvider>
        </ThemeProvider>,
      ),
    );
    return { path, role, html, styleTags: sheet.getStyleTags() };
  } finally {
    sheet.seal();
  }
}

export async function renderPages(): Promise<RenderedPage[]> {
  globalThis.localStorage ??= emptyStorage();
  const pages: RenderedPage[] = [];
  for (const page of PAGES) pages.push(await renderPage(page));
  return pages;
}
