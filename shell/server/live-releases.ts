// Which release of each remote a request gets, and which release of the shell this server serves. A remote's pointer
// (`<remote's address>/releases/live.json`, written by `npm run release`) is read from its host, as the page reads
// the remote's code, and asked again every `cacheMs`; without one the remote's address is used as it is (a plain
// build: a fresh clone, or a deployment that does not use releases).
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { TOKEN_COOKIE } from 'shared-api/contract';
import type { RefusedRelease } from '../src/federation/runtimeConfig';
import { CONTRACT_FILE, parseContract, type Contract } from './contract';
import { compatibleChoice, parsePublished, POINTER_FILE, recordOf, versionForBucket, type PublishedPointer } from './releases';
import { remoteBaseUrl, type RemoteKey, type RemotesJson } from './remotes';

/** The visitor's id for canaries: a first-party cookie set by this server while a canary runs (a year). */
export const VISITOR_COOKIE = 'visitor';
/** A staff member's chosen releases (`booking:<version>,admin:<version>`), honoured only with a verified staff session. */
export const PIN_COOKIE = 'release-pin';
/** The query parameter a signed-in staff member opens a remote's release with: `?booking-release=<version>` (`live` ends it). */
export const pinParameter = (remote: RemoteKey): string => `${remote}-release`;

export const RELEASES_CACHE_MS = 2000;
const REMOTES: RemoteKey[] = ['booking', 'admin'];

/** Where a remote's releases live beside its code: `<address>/releases/<version>/` and the pointer. */
export const releasesBaseUrl = (remoteBase: string): string => `${remoteBase}/releases`;
export const releaseEntryUrl = (remoteBase: string, version: string): string => `${releasesBaseUrl(remoteBase)}/${version}/remoteEntry.js`;

const cookieOf = (request: Pick<http.IncomingMessage, 'headers'>, name: string): string | undefined => {
  const match = new RegExp(`(?:^|;\\s*)${name.replace(/[-]/g, '\\-')}=([^;]*)`).exec(request.headers.cookie ?? '');
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
};

type Cached<T> = { at: number; value: T; etag?: string; reading?: Promise<T> };

/**
 * A remote's pointer from its host, reused for `cacheMs`; a failed read keeps the last good one. A pointer naming
 * anything but versions (`../../../shell`) is refused the same way, and said (once a minute per host).
 */
export function pointerSource(cacheMs: number, warn: (line: string) => void, now: () => number = Date.now) {
  const cache = new Map<string, Cached<PublishedPointer | undefined>>();
  const refusedAt = new Map<string, number>();
  const read = async (base: string, previous: Cached<PublishedPointer | undefined> | undefined): Promise<PublishedPointer | undefined> => {
    const url = `${releasesBaseUrl(base)}/${POINTER_FILE}`;
    try {
      const response = await fetch(url, {
        headers: previous?.etag ? { 'If-None-Match': previous.etag } : {},
        signal: AbortSignal.timeout(1000),
      });
      // A body left unread keeps its connection busy: dropped at once when not used.
      if (!response.ok) await response.body?.cancel();
      if (response.status === 304 && previous) return previous.value;
      if (response.status === 404) return undefined;
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      const body: unknown = await response.json();
      let pointer: PublishedPointer;
      try {
        pointer = parsePublished(body, releasesBaseUrl(base));
      } catch (error) {
        if (now() - (refusedAt.get(base) ?? -Infinity) > 60_000) {
          refusedAt.set(base, now());
          warn(`releases: ${error instanceof Error ? error.message : String(error)}; ${previous?.value ? 'keeping the last good pointer' : 'the remote\'s own address is used'}`);
        }
        return previous?.value;
      }
      cache.set(base, { at: now(), value: pointer, etag: response.headers.get('etag') ?? undefined });
      return pointer;
    } catch (error) {
      // Said only when a pointer was in use (a host without releases that is down is the remote's own failure).
      if (previous?.value) warn(`releases: ${error instanceof Error ? error.message : String(error)}; keeping the last pointer read`);
      return previous?.value;
    }
  };
  return (base: string): Promise<PublishedPointer | undefined> => {
    const cached = cache.get(base);
    if (cached && now() - cached.at < cacheMs) return Promise.resolve(cached.value);
    if (cached?.reading) return cached.reading;
    const entry: Cached<PublishedPointer | undefined> = cached ?? { at: -Infinity, value: undefined };
    entry.reading = read(base, cached).then((value) => {
      const latest = cache.get(base) ?? entry;
      cache.set(base, { ...latest, at: now(), value, reading: undefined });
      return value;
    });
    cache.set(base, entry);
    return entry.reading;
  };
}

/**
 * Whether a request comes from a signed-in staff member. The shell holds no session of its own: it asks the API's
 * current-user route (`GET /user`) with the request's `token` cookie, and keeps the answer 30 s per token (by its
 * hash). Only requests that ask for a release (the query parameter or the pin cookie) are checked: a parent's page
 * never waits on it.
 */
export function staffCheck(now: () => number = Date.now, keepMs = 30_000) {
  const answers = new Map<string, { at: number; staff: Promise<boolean> }>();
  return (request: Pick<http.IncomingMessage, 'headers'>, apiUrl: string): Promise<boolean> => {
    const token = cookieOf(request, TOKEN_COOKIE);
    if (!token) return Promise.resolve(false);
    const key = createHash('sha256').update(`${apiUrl} ${token}`).digest('hex');
    const known = answers.get(key);
    if (known && now() - known.at < keepMs) return known.staff;
    if (answers.size > 1000) answers.clear();
    const staff = fetch(`${apiUrl}/user`, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(2000) }).then(
      async (response) => {
        await response.body?.cancel();
        return response.ok;
      },
      () => false,
    );
    answers.set(key, { at: now(), staff });
    return staff;
  };
}

/**
 * The shell's releases folder: the live release's folder when it has one, and the other retained ones. A pointer
 * naming anything but versions is refused: the last good one (or the plain build) stays served, and it is said.
 */
export function shellRelease(distRoot: string, releasesDir: string | undefined, warn: (line: string) => void = (line) => console.error(line)): () => { root: string; older: string[] } {
  const plain = { root: path.resolve(distRoot), older: [] as string[] };
  let seen: { mtimeMs: number; value: typeof plain } | undefined;
  return () => {
    if (!releasesDir) return plain;
    const file = path.join(releasesDir, POINTER_FILE);
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(file).mtimeMs;
    } catch {
      return plain;
    }
    if (seen?.mtimeMs === mtimeMs) return seen.value;
    try {
      const pointer = parsePublished(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown, 'shell');
      const folder = (version: string) => path.join(path.resolve(releasesDir), version);
      const value =
        pointer.live && fs.existsSync(path.join(folder(pointer.live), 'index.html'))
          ? { root: folder(pointer.live), older: pointer.releases.map((r) => r.version).filter((v) => v !== pointer.live).reverse().map(folder) }
          : plain;
      seen = { mtimeMs, value };
      return value;
    } catch (error) {
      // Wrong (or, on a host that does not rename, half written): keep what was served; said once per change.
      const value = seen?.value ?? plain;
      warn(`shell releases: ${error instanceof Error ? error.message : String(error)}; serving ${value.root}`);
      seen = { mtimeMs, value };
      return value;
    }
  };
}

/** A build folder's contract.json (read once per folder: a release never changes). */
export function contractReader(): (folder: string) => Contract | undefined {
  const contracts = new Map<string, Contract | undefined>();
  return (folder) => {
    if (!contracts.has(folder)) {
      let contract: Contract | undefined;
      try {
        contract = parseContract(JSON.parse(fs.readFileSync(path.join(folder, CONTRACT_FILE), 'utf8')));
      } catch {
        contract = undefined;
      }
      contracts.set(folder, contract);
    }
    return contracts.get(folder);
  };
}

/** The releases a request gets: remotes.json for it, cookies to set, and whether the answer is this visitor's own. */
export type RequestReleases = {
  remotes: RemotesJson;
  cookies: string[];
  /** A canary or a staff pin chose a version: the answer must not be shared by a cache. */
  personal: boolean;
  /** Per remote on a release: that release's first-load chunk hints (routes, and the timetable's words per language). */
  hints: Partial<Record<RemoteKey, { base: string; routes: string[]; words: Record<string, string> }>>;
};

export type ReleaseResolverOptions = {
  cacheMs?: number;
  warn?: (line: string) => void;
  now?: () => number;
  /** Set the cookies `Secure` (behind HTTPS). */
  secure?: boolean;
};

/**
 * Per request: for each remote with a pointer, the version this visitor gets (a verified staff member's pin, else the
 * canary or the live one by the visitor's bucket), checked against what this shell provides; a refused version is
 * replaced by the last compatible release (or by none: the remote's error panel) and named in `refused`.
 */
export function releaseResolver(options: ReleaseResolverOptions = {}) {
  const warn = options.warn ?? ((line: string) => console.error(line));
  const now = options.now ?? Date.now;
  const pointers = pointerSource(options.cacheMs ?? RELEASES_CACHE_MS, warn, now);
  const isStaff = staffCheck(now);
  const said = new Map<string, number>();
  const cookieTail = `; Path=/; SameSite=Lax; HttpOnly${options.secure ? '; Secure' : ''}`;
  return async (request: http.IncomingMessage, base: RemotesJson, provides: Contract | undefined): Promise<RequestReleases> => {
    const result: RequestReleases = { remotes: { ...base }, cookies: [], personal: false, hints: {} };
    const found = await Promise.all(REMOTES.map(async (remote) => ({ remote, url: remoteBaseUrl(base[remote]), pointer: await pointers(remoteBaseUrl(base[remote])) })));
    if (!found.some(({ pointer }) => pointer)) return result;

    // Staff pins: from the query (kept in a session cookie) or the cookie, honoured only for a verified staff session.
    const query = new URL(request.url ?? '/', 'http://local').searchParams;
    const pins = new Map<RemoteKey, string>();
    for (const part of (cookieOf(request, PIN_COOKIE) ?? '').split(',')) {
      const [remote, version] = part.split(':');
      if (REMOTES.includes(remote as RemoteKey) && version) pins.set(remote as RemoteKey, version);
    }
    const asked = REMOTES.filter((remote) => query.has(pinParameter(remote)));
    for (const remote of asked) {
      const version = query.get(pinParameter(remote)) ?? '';
      if (version === 'live' || !version) pins.delete(remote);
      else pins.set(remote, version);
    }
    const staff = pins.size || asked.length ? await isStaff(request, base.api) : false;
    if (staff && asked.length) {
      const value = [...pins].map(([remote, version]) => `${remote}:${version}`).join(',');
      result.cookies.push(value ? `${PIN_COOKIE}=${encodeURIComponent(value)}${cookieTail}` : `${PIN_COOKIE}=; Max-Age=0${cookieTail}`);
    }

    let visitor = cookieOf(request, VISITOR_COOKIE);
    const versions: Partial<Record<RemoteKey, string>> = {};
    const refused: RefusedRelease[] = [];
    for (const { remote, url, pointer } of found) {
      if (!pointer?.live) continue;
      const pinned = staff ? pins.get(remote) : undefined;
      let wanted: string | undefined;
      if (pinned && recordOf(pointer, pinned)) {
        wanted = pinned;
        result.personal = true;
      } else {
        if (pointer.canary) {
          result.personal = true;
          if (!visitor) {
            visitor = randomBytes(12).toString('base64url');
            result.cookies.push(`${VISITOR_COOKIE}=${visitor}; Max-Age=31536000${cookieTail}`);
          }
        }
        wanted = versionForBucket(pointer, visitor);
      }
      const choice = compatibleChoice(pointer, wanted, provides);
      if (choice.refused) {
        refused.push({ remote, ...choice.refused });
        const key = `${remote} ${choice.refused.version}`;
        if (now() - (said.get(key) ?? -Infinity) > 60_000) {
          said.set(key, now());
          warn(`releases: ${remote} ${choice.refused.version} refused (${choice.refused.problems.join('; ')}); ${choice.version ? `loading ${choice.version}` : 'no compatible release: the error panel'}`);
        }
      }
      // None compatible: an address that answers 404, so the page shows the remote's error panel (and reports it).
      const version = choice.version ?? `${wanted}-refused`;
      result.remotes[remote] = releaseEntryUrl(url, version);
      if (choice.version) {
        versions[remote] = choice.version;
        const record = recordOf(pointer, choice.version);
        result.hints[remote] = { base: `${releasesBaseUrl(url)}/${choice.version}`, routes: record?.hints?.routes ?? [], words: record?.hints?.words ?? {} };
      }
    }
    if (Object.keys(versions).length) result.remotes.versions = versions;
    if (refused.length) result.remotes.refused = refused;
    return result;
  };
}
