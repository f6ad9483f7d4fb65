import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createBrowserRouter } from '@careloop/shared-router';
import { ThemeProvider } from 'styled-components';
import { configureApi, configureIdleTimeout, createQueryClient, useSession } from '@careloop/shared-auth';
import { theme } from '@careloop/shared-ui';
import { routes } from './routes';
import { reportCaughtError } from './RemoteView';
import { runtimeConfig } from './startup';

/** Renders the app into `container` (the page's root, held out of the document while a prerendered copy shows). */
export async function start(container: HTMLElement) {
  const root = createRoot(container, { onCaughtError: reportCaughtError });
  try {
    // fetched (and the remotes registered) by src/index.ts as the page started
    const config = await runtimeConfig;
    configureApi(config.apiUrl);
    configureIdleTimeout(config.idleTimeoutMinutes);
  } catch (err) {
    console.error(err);
    root.render(<p role="alert">CareLoop could not start: its configuration did not load. Please reload the page.</p>);
    return;
  }
  useSession.getState().start();
  const queryClient = createQueryClient();
  const router = createBrowserRouter(routes);
  // A transition: React renders the first screen in slices, yielding to the browser between them,
  // instead of one long task that blocks input on a slow phone (Lighthouse's total blocking time).
  startTransition(() =>
    root.render(
      <StrictMode>
        <ThemeProvider theme={theme}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </ThemeProvider>
      </StrictMode>,
    ),
  );
}
