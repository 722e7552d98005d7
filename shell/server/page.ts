// The shell's HTML answer: the built index.html with tags added to its head and its language set, compressed once per
// variant and sent with its own ETag.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import zlib from 'node:zlib';
import { escapeHtml } from './page-texts';
import { acceptedEncodings, cacheControlFor, contentTypes } from './static-files';

export type Page = { etag: string; identity: Buffer; br: Buffer; gzip: Buffer };

/**
 * What one page's HTML gets: tags at the end of its head, `<html lang>`, its `<title>` and the line a browser without
 * JavaScript shows (index.html's `<noscript>`, styled there by `.no-js`; '' drops it: the content says it itself).
 */
export type PageHead = { head: string; lang?: string; title?: string; noscript?: string };

/** `html` with `head` put at the end of its head and, when given, `<html lang>`, the title and the noscript line set. */
export function withHead(html: string, { head, lang, title, noscript }: PageHead): string {
  // index.html's own title and noscript line first: the head added after may carry a `<noscript>` of its own.
  let source = html;
  if (lang) source = source.replace(/<html lang="[^"]*"/, `<html lang="${lang}"`);
  if (title !== undefined) source = source.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  if (noscript !== undefined)
    source = source.replace(/<noscript>[\s\S]*?<\/noscript>/, noscript && `<noscript><p class="no-js">${escapeHtml(noscript)}</p></noscript>`);
  return source.replace('</head>', `${head}</head>`);
}

/** A page built once and served a few seconds (a server-rendered `/`): compressed when first asked so, quickly. */
export function pageOf(html: string): Page {
  const identity = Buffer.from(html);
  let br: Buffer | undefined;
  let gzip: Buffer | undefined;
  return {
    etag: `"${createHash('sha256').update(identity).digest('hex').slice(0, 16)}"`,
    identity,
    get br() {
      return (br ??= zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
    },
    get gzip() {
      return (gzip ??= zlib.gzipSync(identity, { level: 6 }));
    },
  };
}

/** Builds pages from `file` and keeps the last few (one per page, remote address and language). */
export function pageCache(maxEntries = 200): (file: string, parts: PageHead) => Page {
  const pages = new Map<string, Page>();
  return (file, parts) => {
    const stat = fs.statSync(file);
    const key = `${file}|${stat.mtimeMs}|${parts.head}|${parts.lang ?? ''}|${parts.title ?? ''}|${parts.noscript ?? '-'}`;
    const cached = pages.get(key);
    if (cached) return cached;
    const identity = Buffer.from(withHead(fs.readFileSync(file, 'utf8'), parts));
    const page: Page = {
      etag: `"${createHash('sha256').update(identity).digest('hex').slice(0, 16)}"`,
      identity,
      br: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: zlib.gzipSync(identity, { level: 9 }),
    };
    if (pages.size >= maxEntries) pages.clear();
    pages.set(key, page);
    return page;
  };
}

/** The page, br or gzip when accepted; it may depend on the `lang` cookie, so it varies by Cookie. */
export function sendPage(req: http.IncomingMessage, res: http.ServerResponse, page: Page, cacheControl = cacheControlFor('index.html')): void {
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  const encoding = accepted.includes('br') ? 'br' : accepted.includes('gzip') ? 'gzip' : undefined;
  const etag = encoding ? page.etag.replace(/"$/, `-${encoding}"`) : page.etag;
  const headers: http.OutgoingHttpHeaders = {
    'Content-Type': contentTypes['.html'],
    'Cache-Control': cacheControl,
    ETag: etag,
    Vary: 'Accept-Encoding, Accept-Language, Cookie',
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
