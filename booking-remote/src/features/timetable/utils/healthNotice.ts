import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import type { Health } from 'shared-api';
import type { TimetableMessageId } from '../i18n';

/** A notice's words: an id of the timetable's catalogue (SlotListError and DatabaseMessage keys among them) and its values. */
export type HealthText = { id: TimetableMessageId; values?: Record<string, string> };

/** What the timetable shows about the API and the database (spec section 8). */
export type HealthNotice = { kind: 'none' } | { kind: 'error'; text: HealthText } | { kind: 'warning'; text: HealthText };

export function healthNotice(health: Health | undefined, error: FetchBaseQueryError | SerializedError | undefined): HealthNotice {
  if (error) {
    if ('status' in error && error.status === 'FETCH_ERROR') return { kind: 'error', text: { id: 'unreachable' } };
    // A health route that answers 503 still says what is wrong in its body.
    const body = 'data' in error ? (error.data as { data?: Health } | undefined) : undefined;
    if (body?.data?.database) return healthNotice(body.data, undefined);
    // The server answered but not with its health: the slot list may still load, so warn rather than fail.
    return { kind: 'warning', text: { id: 'cannotCheck' } };
  }
  if (!health) return { kind: 'none' };
  if (health.status !== 'healthy') return { kind: 'error', text: { id: 'apiIssue', values: { status: health.status } } };
  if (health.database === 'database_unreachable') return { kind: 'error', text: { id: 'databaseIssue', values: { message: health.message } } };
  if (health.database === 'database_fallback' || health.database === 'database_error') {
    return { kind: 'warning', text: { id: 'databaseLimited', values: { message: health.message } } };
  }
  return { kind: 'none' };
}
