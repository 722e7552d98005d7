// What the shell's HTML adds for the page asked for: preload hints (the page's remote, its data, its language's words)
// and the parent's language.
import fs from 'node:fs';
import path from 'node:path';
import type http from 'node:http';
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, matchLocale, PUBLIC_TIMETABLE_LIST_PATH, type Locale } from 'shared-api/contract';
import { remoteEntryUrl } from './remotes';

/**
 * A remote build's preloadable chunk groups (`preload-groups.json`, written by scripts/rspack-common.ts): each group's
 * scripts, split chunks included. Undefined when the folder has none (an older build, or no folder here).
 */
function preloadGroups(remoteFolder: string | undefined): Record<string, string[]> | undefined {
  if (!remoteFolder) return undefined;
  const file = path.join(remoteFolder, 'preload-groups.json');
  try {
    // Read again only when a build rewrote it: every secured page asks.
    const changed = fs.statSync(file).mtimeMs;
    let read = groupFiles.get(file);
    if (read?.changed !== changed) groupFiles.set(file, (read = { changed, groups: JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string[]> }));
    return read.groups;
  } catch {
    return undefined;
  }
}
const groupFiles = new Map<string, { changed: number; groups: Record<string, string[]> }>();

/**
 * Preload hints for the shell's HTML from where the remote lives: its entry and, when its build folder can be read
 * here, every chunk its exposed routes load (its preload groups; an older build's mf-manifest.json names only the
 * routes' own files) start downloading with the shell's own script instead of after it has run. A chunk name goes
 * stale if the remote is redeployed alone: one wasted fetch.
 */
export function remotePreloadHints(remoteUrl: string, remoteFolder: string | undefined): string {
  // Chromium hands a failed preload to the next script of its URL: with the remote down at page load, the shell's
  // Retry spends these first (shell/src/federation/entryRetryPlugin.ts; e2e/deploy/retry.e2e.test.ts).
  const tags = [`<link rel="preload" href="${remoteEntryUrl(remoteUrl)}" as="script">`];
  if (!remoteFolder) return tags.join('');
  try {
    const files =
      preloadGroups(remoteFolder)?.__federation_expose_routes ??
      (
        JSON.parse(fs.readFileSync(path.join(remoteFolder, 'mf-manifest.json'), 'utf8')) as {
          exposes?: { path: string; assets: { js: { sync: string[] } } }[];
        }
      ).exposes?.find((expose) => expose.path === './routes')?.assets.js.sync ??
      [];
    for (const file of files) tags.push(`<link rel="preload" href="${remoteUrl}/${file}" as="script">`);
  } catch {
    // no manifest there: no chunk hints, the page loads as without them
  }
  return tags.join('');
}

/**
 * The data a page draws first, preloaded from the HTML so that it downloads with the code instead of after it: `/`
 * is the timetable, whose list call is exactly PUBLIC_TIMETABLE_LIST_PATH. `anonymous` matches the API client's
 * fetch (CORS, no credentials); a signed-in staff member's call carries a token header and simply refetches.
 */
export function pageDataHints(pathname: string, apiUrl: string): string {
  if (pathname !== '/') return '';
  return `<link rel="preload" href="${apiUrl}${PUBLIC_TIMETABLE_LIST_PATH}" as="fetch" crossorigin="anonymous">`;
}

/** The staff side's secured pages: their code is admin-remote's `secured-area` chunk (routes.tsx names it). */
const SECURED_PAGE = /^\/secured(\/|$)/;

/**
 * A secured page opened directly (a bookmark, a reload): the secured area's chunks download with the shell's script
 * instead of after the admin's routes have run, steps less before its first request (issue 41). Read from the admin
 * build's preload groups; a release (no folder here) goes without them.
 */
export function securedAreaHints(pathname: string, adminUrl: string, adminFolder: string | undefined): string {
  if (!SECURED_PAGE.test(pathname)) return '';
  return (preloadGroups(adminFolder)?.['secured-area'] ?? []).map((file) => `<link rel="preload" href="${adminUrl}/${file}" as="script">`).join('');
}

/**
 * The page's language as the page itself picks it (shared-api initialLocale): the one a returning parent chose (the
 * `lang` cookie the shell's language select writes), else the browser's preferred languages, else English.
 */
export function localeOfRequest(request: Pick<http.IncomingMessage, 'headers'>): Locale {
  const match = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]+)`).exec(request.headers.cookie ?? '');
  if (isLocale(match?.[1])) return match[1];
  const preferred = (request.headers['accept-language'] ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = Number(/q=([\d.]+)/.exec(params.join(';'))?.[1] ?? 1);
      return { tag, q: Number.isNaN(q) ? 0 : q };
    })
    .filter(({ tag, q }) => tag && q > 0)
    .sort((a, b) => b.q - a.q)
    .map(({ tag }) => tag);
  return matchLocale(preferred) ?? DEFAULT_LOCALE;
}

/** A built chunk by its name (`frame-ms` → `frame-ms.<hash>.js`), if the folder has one. */
export function chunkFile(folder: string | undefined, name: string): string | undefined {
  if (!folder) return undefined;
  try {
    // Read again only when the folder changed (a build adds and removes files): every non-English page asks.
    const changed = fs.statSync(folder).mtimeMs;
    let listing = folderListings.get(folder);
    if (listing?.changed !== changed) folderListings.set(folder, (listing = { changed, files: fs.readdirSync(folder) }));
    return listing.files.find((file) => file.startsWith(`${name}.`) && file.endsWith('.js'));
  } catch {
    return undefined;
  }
}
const folderListings = new Map<string, { changed: number; files: string[] }>();

/** `bookingWords`: a booking release's timetable words per language (its pointer record), instead of its folder. */
export type LanguageChunks = { shellFolder: string; bookingFolder?: string; bookingUrl: string; bookingWords?: Record<string, string> };

/**
 * For a language other than English, the chunks its first load fetches after the code (the frame's words and date
 * words; on `/` also the timetable's words, from the booking remote) start with the code instead.
 */
export function languageHints(locale: Locale, pathname: string, { shellFolder, bookingFolder, bookingUrl, bookingWords }: LanguageChunks): string {
  if (locale === DEFAULT_LOCALE) return '';
  const frame = chunkFile(shellFolder, `frame-${locale}`);
  const home = pathname === '/' ? (bookingWords ? bookingWords[locale] : chunkFile(bookingFolder, `home-${locale}`)) : undefined;
  return [frame && `<link rel="preload" href="/${frame}" as="script">`, home && `<link rel="preload" href="${bookingUrl}/${home}" as="script">`]
    .filter(Boolean)
    .join('');
}
