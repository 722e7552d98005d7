import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import type { Health } from 'shared-api';
import type { ProblemMessageId } from './i18n';

/** A notice's words: an id of the timetable's catalogue (SlotListError and DatabaseMessage keys among them) and its values. */
export type HealthText = { id: ProblemMessageId; values?: Record<string, string> };

/** What the timetable shows about the API and the database (spec section 8). */
export type HealthNotice = { kind: 'none' } | { kind: 'error'; text: HealthText } | { kind: 'warning'; text: HealthText };

type ApiIssue = NonNullable<Health['errorType']>;

/** The spec's errorType of a /health call that brought no health: 404, 5xx, 401/403 or no answer (none for the rest). */
function apiIssueOf(error: FetchBaseQueryError): ApiIssue | undefined {
  // fetch cannot tell a CORS refusal from a dropped connection: both are network_error here.
  if (error.status === 'FETCH_ERROR') return 'network_error';
  // A page that is not JSON (a proxy's 502, a host's 404 page) arrives as PARSING_ERROR with the status it had.
  const status = 'originalStatus' in error ? error.originalStatus : error.status;
  return status === 404 ? 'not_found' : status === 401 || status === 403 ? 'auth_error' : Number(status) >= 500 ? 'server_error' : undefined;
}

const apiIssueNotice = (type: ApiIssue): HealthNotice => ({ kind: 'error', text: { id: 'apiIssue', values: { type } } });

export function healthNotice(health: Health | undefined, error: FetchBaseQueryError | SerializedError | undefined): HealthNotice {
  if (error) {
    // A health route that answers 503 still says what is wrong in its body.
    const body = 'data' in error ? (error.data as { data?: Health } | undefined) : undefined;
    if (body?.data?.database) return healthNotice(body.data, undefined);
    const issue = 'status' in error ? apiIssueOf(error) : undefined;
    if (issue) return apiIssueNotice(issue);
    // The server answered but not with its health (a 400, 429, a timeout): the slot list may still load, so warn rather than fail.
    return { kind: 'warning', text: { id: 'cannotCheck' } };
  }
  if (!health) return { kind: 'none' };
  // A server from before errorType says the same in its status.
  const issue = health.errorType ?? (health.status === 'healthy' ? null : health.status);
  if (issue) return apiIssueNotice(issue);
  if (health.database === 'database_unreachable') return { kind: 'error', text: { id: 'databaseIssue', values: { message: health.message } } };
  if (health.database === 'database_fallback' || health.database === 'database_error') {
    return { kind: 'warning', text: { id: 'databaseLimited', values: { message: health.message } } };
  }
  return { kind: 'none' };
}
