// The landing page as ONE bundle, without Module Federation: the shell's bootstrap, layout and
// route for "/", with remote-public's Landing view imported statically (by relative path) instead of
// loaded through the federation runtime. Only for the bench's size/Lighthouse comparison
// (bench/webpack.single.ts); the product never ships this.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createBrowserRouter } from '@careloop/shared-router';
import { ThemeProvider } from 'styled-components';
import { configureApi, createQueryClient, loadRuntimeConfig, useSession } from '@careloop/shared-auth';
import { theme } from '@careloop/shared-ui';
import { Layout } from '../../shell/src/Layout';
import { NotFound } from '../../shell/src/NotFound';
import { RouterError } from '../../shell/src/RouterError';
import Landing from '../../remote-public/src/views/Landing';

/** As the shell's "/" when logged out: the landing. */
function Home() {
  const { isLoading, isAuthenticated } = useSession();
  if (isLoading || isAuthenticated) return null;
  return <Landing />;
}

async function start() {
  const root = createRoot(document.getElementById('root')!);
  try {
    configureApi((await loadRuntimeConfig()).apiUrl);
  } catch (err) {
    console.error(err);
    root.render(<p role="alert">CareLoop could not start: its configuration did not load. Please reload the page.</p>);
    return;
  }
  useSession.getState().start();
  const router = createBrowserRouter([
    {
      element: <Layout />,
      errorElement: <RouterError />,
      children: [
        { path: '/', element: <Home /> },
        { path: '*', element: <NotFound /> },
      ],
    },
  ]);
  root.render(
    <StrictMode>
      <ThemeProvider theme={theme}>
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ThemeProvider>
    </StrictMode>,
  );
}

void start();
