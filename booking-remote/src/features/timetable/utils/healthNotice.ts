import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { DatabaseMessage, SlotListError, type Health } from 'shared-api';

/** What the timetable shows about the API and the database (spec section 8). */
export type HealthNotice =
  | { kind: 'none' }
  | { kind: 'error'; message: string }
  | { kind: 'warning'; message: string };

export function healthNotice(health: Health | undefined, error: FetchBaseQueryError | SerializedError | undefined): HealthNotice {
  if (error) {
    if ('status' in error && error.status === 'FETCH_ERROR') return { kind: 'error', message: SlotListError.unreachable };
    // A health route that answers 503 still says what is wrong in its body.
    const body = 'data' in error ? (error.data as { data?: Health } | undefined) : undefined;
    if (body?.data?.database) return healthNotice(body.data, undefined);
    // The server answered but not with its health: the slot list may still load, so warn rather than fail.
    return { kind: 'warning', message: DatabaseMessage.cannotCheck };
  }
  if (!health) return { kind: 'none' };
  if (health.status !== 'healthy') return { kind: 'error', message: `API Health Issue: ${health.status}` };
  if (health.database === 'database_unreachable') return { kind: 'error', message: `Database Issue: ${health.message}` };
  if (health.database === 'database_fallback' || health.database === 'database_error') {
    return { kind: 'warning', message: `${health.message}. Some features may be limited.` };
  }
  return { kind: 'none' };
}
