// Serves one production bundle: pre-compressed files, long cache for hashed names, SPA fallback, CORS for remotes,
// security headers on every answer.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';

const contentTypes: Record<string, string> = {
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

export type StaticServerOptions = {
  /** The bundle's dist folder. */
  root: string;
  port: number;
  host?: string;
  /** Unknown paths without a file extension get index.html (deep links such as /secured/dashboard). */
  spaFallback: boolean;
  /** Remotes: let any origin (the shell's) fetch the chunks. */
  cors: boolean;
  /** Files generated at start-up instead of read from disk (the shell's remotes.json with the real ports). */
  generated?: Record<string, string>;
  /**
   * Tags put at the end of index.html's head for a page path (deploy-time preload hints for that path's remote), and
   * the page's language: both may read the request's cookies (the parent's language), so such pages vary by Cookie.
   */
  htmlHead?: (pathname: string, request: http.IncomingMessage) => { head: string; lang?: string };
  /** The Content-Security-Policy of every answer, read at each request (product.ts: the shell's follows remotes.json). */
  contentSecurityPolicy?: () => string;
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

/**
 * On every answer: no MIME sniffing; no referrer (payment result URLs carry references, and nothing needs one);
 * never framed, also for browsers without frame-ancestors; no window of another origin keeps a handle on the page.
 */
const securityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export type StaticServer = { url: string; port: number; close: () => Promise<void> };

export function cacheControlFor(fileName: string): string {
  if (alwaysRevalidate.has(fileName)) return 'no-cache';
  if (hashedName.test(fileName)) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

/** br when accepted, else gzip when accepted, else identity; only if the pre-compressed file exists. */
const acceptedEncodings = (acceptEncoding: string | undefined): string[] =>
  (acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
    .map(([name]) => name.trim().toLowerCase());

export function pickEncoding(acceptEncoding: string | undefined, file: string): { encoding?: 'br' | 'gzip'; path: string } {
  const accepted = acceptedEncodings(acceptEncoding);
  if (accepted.includes('br') && fs.existsSync(`${file}.br`)) return { encoding: 'br', path: `${file}.br` };
  if (accepted.includes('gzip') && fs.existsSync(`${file}.gz`)) return { encoding: 'gzip', path: `${file}.gz` };
  return { path: file };
}

function resolveFile(root: string, urlPath: string, spaFallback: boolean): string | undefined {
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

type Page = { etag: string; identity: Buffer; br: Buffer; gzip: Buffer };
const pages = new Map<string, Page>();

/** index.html with `head` added (and `<html lang>` set), compressed once per (file version, head, language). */
function pageWithHead(file: string, head: string, lang?: string): Page {
  const stat = fs.statSync(file);
  const key = `${file}|${stat.mtimeMs}|${head}|${lang ?? ''}`;
  const cached = pages.get(key);
  if (cached) return cached;
  const source = fs.readFileSync(file, 'utf8').replace('</head>', `${head}</head>`);
  const html = lang ? source.replace(/<html lang="[^"]*"/, `<html lang="${lang}"`) : source;
  const identity = Buffer.from(html);
  const page: Page = {
    etag: `"${createHash('sha256').update(identity).digest('hex').slice(0, 16)}"`,
    identity,
    br: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: zlib.gzipSync(identity, { level: 9 }),
  };
  if (pages.size > 50) pages.clear();
  pages.set(key, page);
  return page;
}

function sendPage(req: http.IncomingMessage, res: http.ServerResponse, page: Page): void {
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  const encoding = accepted.includes('br') ? 'br' : accepted.includes('gzip') ? 'gzip' : undefined;
  const etag = encoding ? page.etag.replace(/"$/, `-${encoding}"`) : page.etag;
  const headers: http.OutgoingHttpHeaders = {
    'Content-Type': contentTypes['.html'],
    'Cache-Control': cacheControlFor('index.html'),
    ETag: etag,
    Vary: 'Accept-Encoding, Cookie',
  };
  if (encoding) headers['Content-Encoding'] = encoding;
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.identity;
  headers['Content-Length'] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const root = path.resolve(options.root);
  const server = http.createServer((req, res) => {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    if (options.contentSecurityPolicy) res.setHeader('Content-Security-Policy', options.contentSecurityPolicy());
    // A remote's files are loaded by the shell's page, on another origin.
    res.setHeader('Cross-Origin-Resource-Policy', options.cors ? 'cross-origin' : 'same-origin');
    if (options.cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', '*');
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD, OPTIONS' }).end();
      return;
    }
    const urlPath = new URL(req.url ?? '/', 'http://local').pathname;
    const generated = options.generated?.[urlPath];
    if (generated !== undefined) {
      const body = Buffer.from(generated);
      res.writeHead(200, {
        'Content-Type': contentTypes[path.extname(urlPath)] ?? 'text/plain; charset=utf-8',
        'Cache-Control': 'no-cache',
        'Content-Length': body.length,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const file = resolveFile(root, urlPath, options.spaFallback);
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' }).end('Not found');
      return;
    }
    const page = file === path.join(root, 'index.html') ? options.htmlHead?.(urlPath, req) : undefined;
    if (page && (page.head || page.lang)) {
      sendPage(req, res, pageWithHead(file, page.head, page.lang));
      return;
    }
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
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://localhost:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
