import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link, RouterProvider, createBrowserRouter, Outlet } from 'react-router-dom';
import styled, { ThemeProvider } from 'styled-components';
import { configureApi, createQueryClient, loadRuntimeConfig, useLogout, useSession } from 'shared-auth';
import { Button } from './components';
import { GlobalStyle, theme } from './theme';

export interface StandaloneRoute {
  path: string;
  // Views take their own props (e.g. Login's role), given below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  View: ComponentType<any>;
  props?: Record<string, unknown>;
}

const QaBar = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: 0.8rem;
  align-items: center;
  padding: 0.5rem 1rem;
  background: #fff7d6;
  border-bottom: 1px solid #e8d68a;
  font-size: 0.9rem;
`;

function Frame({ title, routes }: { title: string; routes: StandaloneRoute[] }) {
  const { isAuthenticated } = useSession();
  const logout = useLogout();
  return (
    <>
      <GlobalStyle />
      <QaBar aria-label="Standalone">
        <strong>{title} — standalone</strong>
        {routes.map((r) => (
          <Link key={r.path} to={r.path}>
            {r.path}
          </Link>
        ))}
        {isAuthenticated && (
          <Button type="button" $variant="secondary" onClick={logout}>
            Log Out
          </Button>
        )}
      </QaBar>
      <Outlet />
    </>
  );
}

/**
 * A remote alone in the page, for QA: the real shared-auth, its own routes, no shell.
 * The api URL comes from the runtime-config.json served beside the remote.
 */
export async function startStandalone(title: string, routes: StandaloneRoute[]) {
  const config = await loadRuntimeConfig();
  configureApi(config.apiUrl);
  useSession.getState().start();
  const router = createBrowserRouter([
    {
      element: <Frame title={title} routes={routes} />,
      children: routes.map(({ path, View, props }) => ({ path, element: <View {...props} /> })),
    },
  ]);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ThemeProvider theme={theme}>
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ThemeProvider>
    </StrictMode>,
  );
}
