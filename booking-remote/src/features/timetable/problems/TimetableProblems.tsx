// The timetable's error and warning notices (spec section 8), loaded only when one shows: their words and rules stay
// off the public page's first load.
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { serverMessage, slotListErrorKey, type Health } from 'shared-api';
import { Button, ErrorPanel, useCatalog } from 'shared-ui';
import { ActionNotice } from '../components/ActionNotice';
import { healthNotice } from './healthNotice';
import { problemsCatalog } from './i18n';

type HealthProps = { data: Health | undefined; error: FetchBaseQueryError | SerializedError | undefined; onRetry: () => void };

/** What /health says is wrong with the API or the database: an error with Retry, a warning with Retry, or nothing. */
export function HealthProblem({ data, error, onRetry }: HealthProps) {
  const { t } = useCatalog(problemsCatalog);
  const notice = healthNotice(data, error);
  if (notice.kind === 'none') return null;
  const text = t(notice.text.id, notice.text.values);
  return notice.kind === 'error' ? (
    <ErrorPanel message={text} onRetry={onRetry} retryLabel={t('retry')} />
  ) : (
    <ActionNotice $tone="warning" role="status">
      <p>{text}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('retry')}
      </Button>
    </ActionNotice>
  );
}

type SlotListProps = { error: Parameters<typeof slotListErrorKey>[0]; onRetry: () => void };

/** Spec section 8's text for a failed slot list call in the page's language (in English, a 400's own message when the server gave one). */
export function SlotListProblem({ error, onRetry }: SlotListProps) {
  const { t, locale } = useCatalog(problemsCatalog);
  const key = slotListErrorKey(error);
  const message = (key === 'badRequest' && locale === 'en' ? serverMessage(error) : undefined) ?? t(key);
  return <ErrorPanel message={message} onRetry={onRetry} retryLabel={t('retry')} />;
}
