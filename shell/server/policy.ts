// What the browser may do with the product's pages: the headers on every answer and the Content-Security-Policy.
import { COMMON_SECURITY_HEADERS } from 'shared-api/contract';
import type { RemotesJson } from './remotes';

/**
 * On every answer: the product's common ones (no MIME sniffing, no referrer, no browser features), and for pages:
 * never framed, also for browsers without frame-ancestors; no window of another origin keeps a handle on the page.
 */
export const securityHeaders: Record<string, string> = {
  ...COMMON_SECURITY_HEADERS,
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Origins a bundle's pages may use besides their own. */
export type PolicySources = { scripts?: string[]; connect?: string[]; images?: string[] };

/**
 * A bundle page's Content-Security-Policy: code and data only from itself and the origins given, inline styles
 * (styled-components injects style tags), no plugins, never framed, forms and <base> only to itself.
 */
export function contentSecurityPolicy({ scripts = [], connect = [], images = [] }: PolicySources): string {
  const sources = (...list: string[]) => [...new Set(list)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${sources("'self'", ...scripts)}`,
    `connect-src ${sources("'self'", ...connect)}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${sources("'self'", 'data:', ...images)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const originOf = (url: string): string => new URL(url).origin;

/**
 * The shell's Content-Security-Policy: the remotes' code (and images), the API's data and the error reports' endpoint,
 * where remotes.json puts them.
 */
export function shellContentSecurityPolicy(remotes: RemotesJson): string {
  const remoteOrigins = [originOf(remotes.booking), originOf(remotes.admin)];
  const reportOrigins = remotes.errorReportUrl ? [originOf(remotes.errorReportUrl)] : [];
  return contentSecurityPolicy({
    scripts: remoteOrigins,
    connect: [originOf(remotes.api), ...remoteOrigins, ...reportOrigins],
    images: remoteOrigins,
  });
}

/** A remote's own (standalone) page: its code from itself, its data from the API. */
export const remotePageContentSecurityPolicy = (apiUrl: string): string => contentSecurityPolicy({ connect: [originOf(apiUrl)] });
