import { Component, Suspense, lazy, useCallback, useMemo, useState, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPanel, Spinner, styled } from 'shared-ui';
import type { RemoteLoader, RoutesModule } from '../federation/remotes';

const Centered = styled.div`
  display: flex;
  justify-content: center;
  padding: ${({ theme }) => theme.space[6]} 0;
`;

const PanelSpace = styled.div`
  padding: ${({ theme }) => theme.space[4]} 0;
`;

type BoundaryProps = { title: string; message: string; onRetry: () => void; children: ReactNode };
type BoundaryState = { failed: boolean };

/** One per remote: a remote that fails to load or crashes shows its own panel; the frame and the other remote stay. */
class RemoteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.title}:`, error, info.componentStack);
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
export function RemoteSlot({ load, loaded, unavailableTitle, unavailableMessage, loadingLabel }: RemoteSlotProps) {
  const [attempt, setAttempt] = useState(0);
  // A new lazy component per attempt: React.lazy remembers a rejected load forever.
  const RemoteRoutes = useMemo(() => (attempt === 0 && loaded ? loaded.default : lazy(load)), [load, loaded, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return (
    <RemoteErrorBoundary key={attempt} title={unavailableTitle} message={unavailableMessage} onRetry={retry}>
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
