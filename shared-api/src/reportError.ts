// Browser errors sent to the endpoint a deployment names (remotes.json / config.json `errorReportUrl`); off when unset.
// `shared-api/report-error`, not the root: a page pays for it only once something broke (it is off the first load).
// The configuration comes from the shared root, so every bundle reads the one the shell configured.
import { apiConfig } from 'shared-api';

/** Enough of the stack to find the failing code; a report stays well under the beacon's 64 KB budget. */
export const REPORT_STACK_CHARS = 2000;
const REPORT_MESSAGE_CHARS = 500;

export type ErrorReportContext = { remote?: string; buildId?: string };

export type ErrorReport = {
  message: string;
  stack?: string;
  remote?: string;
  /** The route path only: query strings carry payment ids and references. */
  path: string;
  buildId?: string;
  userAgent: string;
};

/** Posts one small JSON report, fire and forget; does nothing when no `errorReportUrl` is configured. */
export function reportError(error: unknown, context: ErrorReportContext = {}): void {
  const url = apiConfig.errorReportUrl;
  if (!url) return;
  const err = error instanceof Error ? error : new Error(String(error));
  const report: ErrorReport = {
    message: err.message.slice(0, REPORT_MESSAGE_CHARS),
    stack: err.stack?.slice(0, REPORT_STACK_CHARS),
    remote: context.remote,
    path: window.location.pathname,
    buildId: context.buildId,
    userAgent: navigator.userAgent,
  };
  // A string body is sent as text/plain: a simple request, so no CORS preflight the collector must answer.
  const body = JSON.stringify(report);
  try {
    if (navigator.sendBeacon?.(url, body)) return;
  } catch {
    // a beacon refused (bad URL, quota): try fetch
  }
  fetch(url, { method: 'POST', body, keepalive: true, mode: 'no-cors' }).catch(() => undefined);
}
