import { Component, Suspense, lazy, useCallback, useMemo, useState, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPanel, Spinner, styled } from 'shared-ui';
import type { RemoteLoader, RoutesModule } from '../federation/remotes';
import { remoteVersions } from '../federation/runtimeConfig';
import type { RemoteName } from '../federation/runtimeConfig';

const Centered = styled.div`
  display: flex;
  justify-content: center;
  padding: ${({ theme }) => theme.space[6]} 0;
`;

const PanelSpace = styled.div`
  padding: ${({ theme }) => theme.space[4]} 0;
`;

type BoundaryProps = { remote: RemoteName; title: string; message: string; onRetry: () => void; children: ReactNode };
type BoundaryState = { failed: boolean };

/** One per remote: a remote that fails to load or crashes shows its own panel; the frame and the other remote stay. */
class RemoteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.title}:`, error, info.componentStack);
    // The reporter is a chunk of its own, fetched only when something broke.
    void import('shared-api/report-error').then(({ reportError }) => reportError(error, { remote: this.props.remote, buildId: remoteVersions[this.props.remote] }));
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <PanelSpace>
        <ErrorPanel title={this.props.title} message={this.props.message} onRetry={this.props.onRetry} />
      </PanelSpace>
    );
  }
}

export type RemoteSlotProps = {
  /** Named in error reports. */
  remote: RemoteName;
  load: RemoteLoader;
  /**
   * The remote's routes when they had loaded before the first render: drawn at once. A lazy component would show
   * the spinner first, and React then holds the content back for up to 300 ms (its Suspense reveal throttle).
   */
  loaded?: RoutesModule;
  /** Shown as the panel's title when the remote cannot be loaded. */
  unavailableTitle: string;
  unavailableMessage: string;
  loadingLabel: string;
};

/** Lazy-loads a remote's route tree; Retry loads it again without reloading the page. */
export function RemoteSlot({ remote, load, loaded, unavailableTitle, unavailableMessage, loadingLabel }: RemoteSlotProps) {
  const [attempt, setAttempt] = useState(0);
  // A new lazy component per attempt: React.lazy remembers a rejected load forever.
  const RemoteRoutes = useMemo(() => (attempt === 0 && loaded ? loaded.default : lazy(load)), [load, loaded, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return (
    <RemoteErrorBoundary key={attempt} remote={remote} title={unavailableTitle} message={unavailableMessage} onRetry={retry}>
      <Suspense
        fallback={
          <Centered>
            <Spinner label={loadingLabel} />
          </Centered>
        }
      >
        <RemoteRoutes />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
