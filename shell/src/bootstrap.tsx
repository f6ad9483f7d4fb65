import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createBrowserRouter } from 'shared-router';
import { ThemeProvider } from 'styled-components';
import {
  configureApi,
  configureIdleTimeout,
  createQueryClient,
  listenForDraftClearing,
  loadRuntimeConfig,
  useSession,
} from 'shared-auth';
import { theme } from 'shared-ui';
import { registerRemoteLocations } from './remotes';
import { routes } from './routes';

async function start() {
  const root = createRoot(document.getElementById('root')!);
  try {
    const config = await loadRuntimeConfig();
    configureApi(config.apiUrl);
    configureIdleTimeout(config.idleTimeoutMinutes);
    registerRemoteLocations(config);
  } catch (err) {
    console.error(err);
    root.render(<p role="alert">CareLoop could not start: its configuration did not load. Please reload the page.</p>);
    return;
  }
  useSession.getState().start();
  listenForDraftClearing();
  const queryClient = createQueryClient();
  const router = createBrowserRouter(routes);
  root.render(
    <StrictMode>
      <ThemeProvider theme={theme}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ThemeProvider>
    </StrictMode>,
  );
}

void start();
