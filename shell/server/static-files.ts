// Answering from a built folder as the product's hosts must: pre-compressed files, long cache for hashed names, deep
// links answered with index.html, security headers on every answer. The shell's server is built on it, and `npm start`
// and e2e serve the remotes' folders with it in the role of their static host (README.md beside this file says why).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { securityHeaders } from './policy';
import { isVersionName, parsePublished, POINTER_FILE } from './releases';

export const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

// Names that must be fetched fresh: they point at the current hashed files (a redeployed remote changes them).
const alwaysRevalidate = new Set(['remoteEntry.js', 'mf-manifest.json', 'mf-stats.json', 'remotes.json', 'index.html']);
const hashedName = /\.[0-9a-f]{8,}\.[a-z0-9]+$/i;

export function cacheControlFor(fileName: string): string {
  if (alwaysRevalidate.has(fileName)) return 'no-cache';
  if (hashedName.test(fileName)) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

/** The encodings an Accept-Encoding header allows (those with q=0 left out), lower-cased. */
export const acceptedEncodings = (acceptEncoding: string | undefined): string[] =>
  (acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
    .map(([name]) => name.trim().toLowerCase())
    .filter(Boolean);

/** br when accepted, else gzip when accepted, else identity; only if the pre-compressed file exists. */
export function pickEncoding(acceptEncoding: string | undefined, file: string): { encoding?: 'br' | 'gzip'; path: string } {
  const accepted = acceptedEncodings(acceptEncoding);
  if (accepted.includes('br') && fs.existsSync(`${file}.br`)) return { encoding: 'br', path: `${file}.br` };
  if (accepted.includes('gzip') && fs.existsSync(`${file}.gz`)) return { encoding: 'gzip', path: `${file}.gz` };
  return { path: file };
}

/**
 * The file a URL path names inside `root` (a folder's index.html for a folder), never outside it; with `spaFallback`,
 * an unknown path without a file extension (a deep link such as /secured/dashboard) gets the root's index.html.
 */
export function resolveFile(root: string, urlPath: string, spaFallback: boolean): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const candidate = path.normalize(path.join(root, decoded));
  if (candidate !== root && !candidate.startsWith(root + path.sep)) return undefined;
  try {
    const stat = fs.statSync(candidate);
    if (stat.isFile()) return candidate;
    if (stat.isDirectory() && fs.existsSync(path.join(candidate, 'index.html'))) return path.join(candidate, 'index.html');
  } catch {
    // not a file: maybe a client-side route
  }
  if (spaFallback && path.extname(decoded) === '') return path.join(root, 'index.html');
  return undefined;
}

/** A file from disk: its pre-compressed copy when accepted, ETag of size and time, 304 when the browser has it. */
export function sendFile(req: http.IncomingMessage, res: http.ServerResponse, file: string): void {
  const chosen = pickEncoding(req.headers['accept-encoding'], file);
  const stat = fs.statSync(chosen.path);
  const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}${chosen.encoding ? `-${chosen.encoding}` : ''}"`;
  const headers: http.OutgoingHttpHeaders = {
    'Content-Type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
    'Cache-Control': cacheControlFor(path.basename(file)),
    ETag: etag,
    Vary: 'Accept-Encoding',
  };
  if (chosen.encoding) headers['Content-Encoding'] = chosen.encoding;
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  headers['Content-Length'] = stat.size;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  fs.createReadStream(chosen.path).pipe(res);
}

/** A body made at request time (configuration such as remotes.json): never cached without asking again. */
export function sendGenerated(req: http.IncomingMessage, res: http.ServerResponse, urlPath: string, text: string, cacheControl = 'no-cache'): void {
  const body = Buffer.from(text);
  res.writeHead(200, {
    'Content-Type': contentTypes[path.extname(urlPath)] ?? 'text/plain; charset=utf-8',
    'Cache-Control': cacheControl,
    'Content-Length': body.length,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function sendNotFound(res: http.ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' }).end('Not found');
}

export type CommonHeaders = {
  /** Let any origin (the shell's page) fetch the files: a remote's host. */
  cors: boolean;
  /** The Content-Security-Policy of this answer. */
  contentSecurityPolicy?: string;
};

/**
 * The headers of every answer, and the methods a static host answers: OPTIONS gets 204, anything but GET and HEAD
 * 405. Returns false when the answer has been sent.
 */
export function startAnswer(req: http.IncomingMessage, res: http.ServerResponse, { cors, contentSecurityPolicy }: CommonHeaders): boolean {
  for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
  if (contentSecurityPolicy) res.setHeader('Content-Security-Policy', contentSecurityPolicy);
  // A remote's files are loaded by the shell's page, on another origin.
  res.setHeader('Cross-Origin-Resource-Policy', cors ? 'cross-origin' : 'same-origin');
  if (cors) {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', '*');
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204).end();
    return false;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD, OPTIONS' }).end();
    return false;
  }
  return true;
}

export const pathnameOf = (req: http.IncomingMessage): string => new URL(req.url ?? '/', 'http://local').pathname;

export type RunningServer = { url: string; port: number; close: () => Promise<void> };

/** Listens with `handler` (port 0: any free port); `close` ends open connections too. */
export function listen(handler: http.RequestListener, port: number, host?: string): Promise<RunningServer> {
  const server = http.createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const { port: actual } = server.address() as AddressInfo;
      resolve({
        url: `http://localhost:${actual}`,
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

export type StaticFolderOptions = {
  /** The built folder (a bundle's dist folder). */
  root: string;
  port: number;
  host?: string;
  /** Unknown paths without a file extension get index.html (deep links such as /secured/dashboard). */
  spaFallback: boolean;
  cors: boolean;
  /** Files generated at start-up instead of read from disk (a remote's config.json with the API's address). */
  generated?: Record<string, string>;
  /** The Content-Security-Policy of every answer. */
  contentSecurityPolicy?: string;
  /**
   * A bundle's releases folder served under a path prefix (`{ '/releases/': '.releases/booking-remote' }`): only what a
   * page and the shell's server read from it (see `resolveReleaseFile`).
   */
  releaseMounts?: Record<string, string>;
};

/** The versions a releases folder's pointer names (read again when it changes); none while it has no pointer. */
const releasedVersions = (() => {
  const seen = new Map<string, { stamp: string; versions: Set<string> }>();
  return (folder: string): Set<string> => {
    const file = path.join(folder, POINTER_FILE);
    let stamp: string;
    try {
      // The release command renames a new pointer into place: a new inode, whatever the clock's resolution.
      const stat = fs.statSync(file);
      stamp = `${stat.ino} ${stat.mtimeMs} ${stat.size}`;
    } catch {
      return new Set();
    }
    const known = seen.get(folder);
    if (known?.stamp === stamp) return known.versions;
    let versions = new Set<string>();
    try {
      versions = new Set(parsePublished(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown, folder).releases.map((release) => release.version));
    } catch {
      // a wrong pointer publishes nothing
    }
    seen.set(folder, { stamp, versions });
    return versions;
  };
})();

/**
 * A file of a releases folder a host may serve: the published pointer (`/live.json`) or a file of a released version
 * (`/<version>/...`, a version the pointer retains). Nothing else in the folder answers: not a lock, an older layout's
 * `releases.json` (who released what), a folder being copied or pruned, or the folder's listing.
 */
export function resolveReleaseFile(folder: string, urlPath: string): string | undefined {
  const [, first = '', ...rest] = urlPath.split('/');
  let version: string;
  try {
    version = decodeURIComponent(first);
  } catch {
    return undefined;
  }
  if (version === POINTER_FILE && rest.length === 0) return resolveFile(folder, `/${POINTER_FILE}`, false);
  if (!isVersionName(version) || rest.join('') === '' || !releasedVersions(folder).has(version)) return undefined;
  return resolveFile(path.join(folder, version), `/${rest.join('/')}`, false);
}

/** A built folder served as its static host would: a remote under `npm start` and e2e, another build in a benchmark. */
export function startStaticServer(options: StaticFolderOptions): Promise<RunningServer> {
  const root = path.resolve(options.root);
  return listen((req, res) => {
    if (!startAnswer(req, res, options)) return;
    const urlPath = pathnameOf(req);
    const generated = options.generated?.[urlPath];
    if (generated !== undefined) return sendGenerated(req, res, urlPath, generated);
    const mount = Object.keys(options.releaseMounts ?? {}).find((prefix) => urlPath.startsWith(prefix));
    const file = mount
      ? resolveReleaseFile(path.resolve(options.releaseMounts![mount]), urlPath.slice(mount.length - 1))
      : resolveFile(root, urlPath, options.spaFallback);
    if (!file) return sendNotFound(res);
    sendFile(req, res, file);
  }, options.port, options.host);
}
