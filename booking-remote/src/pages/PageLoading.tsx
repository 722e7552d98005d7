import { Spinner } from 'shared-ui';

/** Shown while a lazily loaded page arrives. */
export function PageLoading() {
  return <Spinner label="Loading page" />;
}
