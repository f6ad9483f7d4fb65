// Rendered in Node at build time (scripts/prerender.mjs): the logged-out first screen of the pages a
// phone most often opens cold — `/` and the two logins — as the shell's layout around the view
// remote-public's route table gives for the path, so a phone paints it before any script has run.
// The app then renders the same page in a hidden root and swaps it in (src/prerendered.ts).
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from '@careloop/shared-router';
import { ServerStyleSheet, ThemeProvider } from 'styled-components';
import { theme } from '@careloop/shared-ui';
import publicRoutes from '../../remote-public/src/routes';
import { Frame } from '../src/Layout';

/** The paths rendered at build time; any other URL gets the plain shell page. */
export const PRERENDERED_PATHS = ['/', '/login/patient', '/login/doctor'];

export interface RenderedPage {
  path: string;
  html: string;
  /** the styles it needs, as style tags */
  styleTags: string;
}

/** A visitor's first load has nothing stored: the views read storage (the idle sign-out notice) as they render. */
function emptyStorage(): Storage {
  return { length: 0, key: () => null, getItem: () => null, setItem() {}, removeItem() {}, clear() {} };
}

async function renderPage(path: string): Promise<RenderedPage> {
  const route = publicRoutes.find((r) => r.path === path);
  if (!route) throw new Error(`remote-public has no route ${path} to prerender`);
  const { default: View } = await route.view();
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(
      sheet.collectStyles(
        <ThemeProvider theme={theme}>
          <QueryClientProvider client={new QueryClient()}>
            <MemoryRouter initialEntries={[path]}>
              {/* as Layout shows a page to a visitor with no session */}
              <Frame role={null}>
                <View {...route.props} />
              </Frame>
            </MemoryRouter>
          </QueryClientProvider>
        </ThemeProvider>,
      ),
    );
    return { path, html, styleTags: sheet.getStyleTags() };
  } finally {
    sheet.seal();
  }
}

export async function renderPages(): Promise<RenderedPage[]> {
  globalThis.localStorage ??= emptyStorage();
  const pages: RenderedPage[] = [];
  for (const path of PRERENDERED_PATHS) pages.push(await renderPage(path));
  return pages;
}
