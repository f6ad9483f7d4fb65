import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { createQueryClient } from '@careloop/shared-auth';
import { routes } from './routes';

/** Tests: the shell's whole route table rendered at `path` (in memory); answers its router. */
export function renderShellAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
