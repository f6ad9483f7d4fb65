import { Component, Suspense, lazy, useEffect, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { useRoutes, type RouteObject } from '@careloop/shared-router';
import { Banner, Button, Card, Page, guardRoute, type RemoteRoute } from '@careloop/shared-ui';
import { NotFound } from './NotFound';
import { REMOTE_NAMES, type Owner } from './remotes';
import { incompatibleShared, needsNewer } from './remoteErrors';
import { withRetries } from './federationPlugin';
import { alreadyReported, incompatibleRemote } from './sharedVersions';
import { forgetLoadedRouteLists, loadRouteList } from './routeLists';

const AREA_NAMES: Record<Owner, string> = { public: 'public pages', patient: 'patient area', doctor: 'doctor area' };

type OwnerRoutesView = ComponentType<{ at?: string }>;

// One view per remote and page; a failed load is forgotten, so Retry asks the network again.
// (React.lazy, not use(): a lazy component is what React retries reliably, tests included.)
const ownerRoutes = new Map<Owner, OwnerRoutesView>();

function ownerRoutesView(owner: Owner): OwnerRoutesView {
  let view = ownerRoutes.get(owner);
  if (!view) {
    view = lazy(async () => {
      try {
        const routes = await loadRouteList(owner);
        const list = [...routes.map((route) => routeObject(route, owner)), { path: '*', element: <NotFound /> }];
        /** The owner's route list matched against the URL (or `at`); its own 404 when it has no such route. */
        function OwnerRoutes({ at }: { at?: string }) {
          return useRoutes(list, at);
        }
        return { default: OwnerRoutes };
      } catch (err) {
        ownerRoutes.delete(owner);
        throw err;
      }
    });
    ownerRoutes.set(owner, view);
  }
  return view;
}

/**
 * A route of a remote's list, its view fetched on first show. The load (its tries and deadline:
 * withRetries) is kept until it settles, rejection included, so the failure reaches the view's panel:
 * a fresh loader per render would ask the network again forever. Retry, or a later visit after a
 * failure, starts one new load.
 */
function routeObject(route: RemoteRoute, owner: Owner): RouteObject {
  let load: { View: ComponentType<Record<string, unknown>>; failed: boolean } | undefined;
  const view = () => {
    if (!load) {
      const current = {
        failed: false,
        View: lazy(() =>
          withRetries(route.view, { final: (err) => incompatibleShared(err) !== undefined }).catch((err: unknown) => {
            current.failed = true;
            throw err;
          }),
        ),
      };
      load = current;
    }
    return load.View;
  };
  const forgetFailed = () => {
    if (load?.failed) load = undefined;
  };
  function LoadedView() {
    const View = view();
    return <View {...route.props} />;
  }
  function RouteView() {
    const [attempt, setAttempt] = useState(0);
    // Leaving a view that failed: the next visit is a new navigation and tries again.
    useEffect(() => forgetFailed, []);
    return (
      <RemoteBoundary
        key={attempt}
        owner={owner}
        onRetry={() => {
          forgetFailed();
          setAttempt((a) => a + 1);
        }}
      >
        <Suspense fallback={<Page aria-busy="true" />}>
          <LoadedView />
        </Suspense>
      </RemoteBoundary>
    );
  }
  return { path: route.path, element: guardRoute(route, <RouteView />) };
}

class RemoteBoundary extends Component<
  { owner: Owner; onRetry(): void; children: ReactNode },
  { failed: boolean; error?: unknown }
> {
  state: { failed: boolean; error?: unknown } = { failed: false };
  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error };
  }
  componentDidCatch(error: unknown) {
    if (alreadyReported(error)) return;
    console.error(`CareLoop: the ${AREA_NAMES[this.props.owner]} failed to load`, error);
  }
  mismatch(error: unknown) {
    return incompatibleShared(error) ?? incompatibleRemote(REMOTE_NAMES[this.props.owner]);
  }
  render() {
    if (!this.state.failed) return this.props.children;
    const mismatch = this.mismatch(this.state.error);
    if (mismatch)
      // Built against a shared package the page cannot give it: explained, never a TypeError inside the remote.
      return (
        <Page>
          <Card data-testid="remote-incompatible">
            <h2>This part of CareLoop cannot start</h2>
            <Banner tone="error">
              This part of CareLoop needs {needsNewer(mismatch) ? 'a newer' : 'a different'} version of {mismatch.pkg} (
              {mismatch.needs}, this page has {mismatch.loaded}); reload or contact support.
            </Banner>
            <Button type="button" onClick={() => window.location.reload()}>
              Reload
            </Button>
          </Card>
        </Page>
      );
    return (
      <Page>
        <Card data-testid="remote-error">
          <h2>This part of CareLoop is unavailable</h2>
          <Banner tone="error">The {AREA_NAMES[this.props.owner]} could not be loaded. The rest of CareLoop still works.</Banner>
          <Button type="button" onClick={this.props.onRetry}>
            Retry
          </Button>
        </Card>
      </Page>
    );
  }
}

/** The routes of one remote, loaded on demand; a remote that is down fails only its own area. */
export function RemoteRoutes({ owner, at }: { owner: Owner; at?: string }) {
  const [attempt, setAttempt] = useState(0);
  const OwnerRoutes = ownerRoutesView(owner);
  return (
    <RemoteBoundary key={attempt} owner={owner} onRetry={() => setAttempt((a) => a + 1)}>
      <Suspense fallback={<Page aria-busy="true" />}>
        <OwnerRoutes at={at} />
      </Suspense>
    </RemoteBoundary>
  );
}

/**
 * React's report of an error a boundary caught (createRoot's onCaughtError): as React's own, except
 * for one already logged with its cause.
 */
export function reportCaughtError(error: unknown, info: ErrorInfo): void {
  if (alreadyReported(error)) return;
  console.error(error, info.componentStack);
}

/** Forgets the loaded route lists, as a new page load would (tests start each case from a fresh page). */
export function forgetRouteLists() {
  ownerRoutes.clear();
  forgetLoadedRouteLists();
}
