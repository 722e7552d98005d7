import type { ReactNode } from 'react';
import { ErrorPanel, Spinner } from 'shared-ui';
import { ResultPanel } from './resultLayout';

type Props = {
  /** The heading's id. */
  id: string;
  title: string;
  /** While the link is read: a spinner with this label, and nothing else. */
  loading?: string;
  children?: ReactNode;
};

/**
 * The panel of a page a private link opens (the manage page, a waitlist entry or offer), named by its title, in every
 * state (one element throughout, so the heading stays put when the link has been read).
 */
export function LinkPanel({ id, title, loading, children }: Props) {
  return (
    <ResultPanel aria-labelledby={id} aria-busy={loading ? true : undefined}>
      <h1 id={id}>{title}</h1>
      {loading ? <Spinner label={loading} /> : children}
    </ResultPanel>
  );
}

/** The link could not be read: its refusal (unknown, expired, too many tries) said alone, or the failure with Retry. */
export const LinkFailure = ({ refusal, failure, onRetry }: { refusal?: string; failure: string; onRetry: () => void }) =>
  refusal ? <p role="alert">{refusal}</p> : <ErrorPanel message={failure} onRetry={onRetry} />;
