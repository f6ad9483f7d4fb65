// Rendered in Node at build time (scripts/prerender.mjs): the logged-out first screen of `/` — the
// shell's layout around remote-public's landing — so a phone paints it before any script has run.
// The app then renders the same page in a hidden root and swaps it in (src/prerendered.ts).
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'shared-router';
import { ServerStyleSheet, ThemeProvider } from 'styled-components';
import { theme } from 'shared-ui';
import Landing from '../../remote-public/src/views/Landing';
import { Frame } from '../src/Layout';

/** The markup of `/` for a visitor with no session, and the styles it needs (style tags). */
export function renderLanding(): { html: string; styleTags: string } {
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(
      sheet.collectStyles(
        <ThemeProvider theme={theme}>
          <QueryClientProvider client={new QueryClient()}>
            <MemoryRouter initialEntries={['/']}>
              {/* as Layout shows `/` to a visitor with no session */}
              <Frame role={null}>
                <Landing />
              </Frame>
            </MemoryRouter>
          </QueryClientProvider>
        </ThemeProvider>,
      ),
    );
    return { html, styleTags: sheet.getStyleTags() };
  } finally {
    sheet.seal();
  }
}
