/**
 * The router every app imports (never react-router or react-router-dom): shared as ONE singleton, and
 * named re-exports only, so the shared chunk holds what is listed here and webpack drops the rest of
 * react-router (issue 14 item 6). Need another react-router export? Add it here.
 */
export {
  Link,
  MemoryRouter,
  NavLink,
  Navigate,
  Outlet,
  createBrowserRouter,
  createMemoryRouter,
  isRouteErrorResponse,
  matchPath,
  useLocation,
  useNavigate,
  useParams,
  useRouteError,
  useRoutes,
  useSearchParams,
} from 'react-router';
// RouterProvider from react-router/dom: the one that uses react-dom's flushSync.
export { RouterProvider } from 'react-router/dom';
export type { RouteObject } from 'react-router';
