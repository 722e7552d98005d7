// Which title each page has: one map for the browser (set on every page change) and the shell's server (the HTML's
// <title>). Plain code, no router or React: the server runs it too. The texts are locales/*.json (pageTitleCatalog).
import type en from './locales/en.json';

export type PageTitleId = keyof typeof en;

// The remotes' routes (booking-remote/src/routes.tsx, admin-remote/src/routes.tsx and its SecuredArea), first match wins.
const TITLES: [RegExp, PageTitleId][] = [
  [/^\/$/, 'timetable'],
  [/^\/thankyou$/, 'thankYou'],
  [/^\/payment\/success$/, 'paymentSuccess'],
  [/^\/payment\/failure$/, 'paymentFailure'],
  [/^\/payment\/pending$/, 'paymentPending'],
  [/^\/booking\/manage\/[^/]+$/, 'manageBooking'],
  [/^\/waitlist\/offer\/[^/]+$/, 'waitlistOffer'],
  [/^\/waitlist\/[^/]+$/, 'waitlistEntry'],
  [/^\/login$/, 'staffLogin'],
  [/^\/register$/, 'staffRegister'],
  [/^\/forgot-password$/, 'staffForgotPassword'],
  [/^\/reset-password\/[^/]+$/, 'staffResetPassword'],
  [/^\/secured\/dashboard$/, 'staffDashboard'],
  [/^\/secured\/waitlist$/, 'staffWaitlist'],
  [/^\/secured\/colleagues$/, 'staffColleagues'],
  [/^\/secured\/audit$/, 'staffAudit'],
  [/^\/secured\/privacy$/, 'staffPrivacy'],
  [/^\/secured(\/|$)/, 'staffArea'],
];

/** The title of the page at `pathname` (a trailing slash as the router reads it); any other address is not found. */
export function pageTitleId(pathname: string): PageTitleId {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return TITLES.find(([pattern]) => pattern.test(path))?.[1] ?? 'notFound';
}

/** The document's title: the page, then the product's title in the page's language (brand.config.json). */
export const documentTitle = (page: string, brandName: string): string => `${page} · ${brandName}`;
