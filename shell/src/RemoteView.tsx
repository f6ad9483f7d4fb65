import { Component, Suspense, lazy, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { Banner, Button, Card, Page } from 'shared-ui';
import { REMOTE_NAMES, type Owner } from './remotes';

const AREA_NAMES: Record<Owner, string> = { public: 'public pages', patient: 'patient area', doctor: 'doctor area' };

async function importView(owner: Owner, view: string) {
  const mod = await loadRemote<{ default: ComponentType<Record<string, unknown>> }>(`${REMOTE_NAMES[owner]}/${view}`);
  if (!mod?.default) throw new Error(`${REMOTE_NAMES[owner]}/${view} did not load`);
  return mod;
}

class RemoteBoundary extends Component<{ owner: Owner; onRetry(): void; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    console.error(`CareLoop: the ${AREA_NAMES[this.props.owner]} failed to load`, error);
  }
  render() {
    if (!this.state.failed) return this.props.children;
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

/** One view of one remote, loaded on demand; a remote that is down fails only its own area. */
export function RemoteView({ owner, view, props }: { owner: Owner; view: string; props?: Record<string, unknown> }) {
  const [attempt, setAttempt] = useState(0);
  // React.lazy caches a rejection: a retry needs a fresh lazy component.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `attempt` is the point: a new lazy() per retry
  const View = useMemo(() => lazy(() => importView(owner, view)), [owner, view, attempt]);
  return (
    <RemoteBoundary key={`${owner}/${view}/${attempt}`} owner={owner} onRetry={() => setAttempt((a) => a + 1)}>
      <Suspense fallback={<Page aria-busy="true" />}>
        <View {...props} />
      </Suspense>
    </RemoteBoundary>
  );
}
