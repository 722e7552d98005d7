// The shell's production server: answers every request with one of three kinds of answer (generated configuration,
// the HTML page, a built file), with the security headers and the Content-Security-Policy of the current remotes.json.
import type http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { DEFAULT_LOCALE, HTML_LANG, LOCALES, TOKEN_COOKIE, type Locale } from 'shared-api/contract';
import { pageLocale } from '../src/app/pageLocale';
import { remoteForPath } from '../src/app/remoteForPath';
import { SERVER_STATE_ID } from '../src/app/serverState';
import { languageHints, localeOfRequest, pageDataHints, remotePreloadHints, securedAreaHints } from './hints';
import { pageCache, pageOf, sendPage, withHead, type Page, type PageHead } from './page';
import { noScriptText, pageTitleText } from './page-texts';
import type { Frame } from './frame';
import { serverRenderer, type RenderedContent } from './server-render';
import { shellContentSecurityPolicy } from './policy';
import { contractReader, releaseResolver, shellRelease, type RequestReleases } from './live-releases';
import { remoteBaseUrl, type RemoteKey, type RemotesJson } from './remotes';
import { listen, pathnameOf, resolveFile, sendFile, sendGenerated, sendNotFound, startAnswer, type RunningServer } from './static-files';

export type ShellServerOptions = {
  /** The shell's built folder (dist/shell). */
  root: string;
  /**
   * The shell's releases folder (`npm run release -- shell`): while its pointer names a live release, that release's
   * folder is served instead of `root` (read again when the pointer changes), and files of the other retained releases
   * are still answered, so a page opened before a release keeps loading its chunks.
   */
  releasesDir?: string;
  /** remotes.json as it is now: read at each request, so a remote can move without restarting the shell. */
  remotes: () => RemotesJson;
  /** Off: the remotes' release pointers are not read (each remote's address is used as it is). */
  followReleases?: boolean;
  /** How long a remote's release pointer is reused before its host is asked again (default 2 s). */
  releasesCacheMs?: number;
  /** Folders holding the remotes' builds, when this machine has them: their route chunks are then preloaded too. */
  remoteFolders?: Partial<Record<RemoteKey, string>>;
  /** Off (`PRELOAD_HINTS=0`): index.html exactly as built, without hints or the parent's language. */
  preloadHints?: boolean;
  /** Off (`SERVER_RENDER=0`): `/` is the client-rendered page. On: see server-render.ts. */
  serverRender?: boolean;
  /** The render's budget and how long a rendered `/` is served again (tests shorten them). */
  renderBudgetMs?: number;
  renderCacheMs?: number;
  /** Where the render step says what failed (default: stderr). */
  log?: (line: string) => void;
  /** How long a starting server waits to render before it listens (default READY_WITHIN_MS; tests of failures: 0). */
  readyWithinMs?: number;
};

/** A starting server listens once it renders `/`, or after this: a load balancer then sends it no client pages to cache around. */
export const READY_WITHIN_MS = 3000;

/** Where a remote keeps its server render entry, beside its code (scripts/rspack-common.ts serverRenderFile). */
export const renderModuleUrl = (remoteUrl: string): string => `${remoteUrl}/server/render.js`;

/** How long a CDN may serve an anonymous visitor's server-rendered `/` (the browser always asks again). */
export const RENDERED_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=5';

/** The head tags, `<html lang>`, title and no-JavaScript line of the page at `pathname` for this request. */
export type { PageHead } from './page';

/** What a page's head depends on besides the path: this request's remotes.json, the shell's folder, release hints. */
export type PageContext = { remotes: RemotesJson; root: string; hints?: RequestReleases['hints'] };

/** Preload hints for the page's remote (at its address in remotes.json), its data and the parent's language; the page's title and no-JavaScript line in that language. */
export function pageHeadFor(options: ShellServerOptions): (pathname: string, request: http.IncomingMessage, context: PageContext, withData?: boolean) => PageHead {
  const remoteHints = new Map<string, string>();
  return (pathname, request, { remotes, root, hints }, withData = true) => {
    const remote = remoteForPath(pathname);
    const base = remoteBaseUrl(remotes[remote]);
    const release = hints?.[remote];
    const key = `${remote} ${base}`;
    if (!remoteHints.has(key)) {
      // A release names its own chunks (recorded by `npm run release`); a plain build is read from its folder.
      remoteHints.set(
        key,
        release
          ? remotePreloadHints(base, undefined) + release.routes.map((file) => `<link rel="preload" href="${base}/${file}" as="script">`).join('')
          : remotePreloadHints(base, options.remoteFolders?.[remote]),
      );
      if (remoteHints.size > 50) remoteHints.delete(remoteHints.keys().next().value!);
    }
    // The staff side is English whatever the parent chose: `<html lang="en">` and no other language's words.
    const locale = pageLocale(pathname, localeOfRequest(request));
    const bookingRelease = hints?.booking;
    const words = languageHints(locale, pathname, {
      shellFolder: root,
      bookingFolder: bookingRelease ? undefined : options.remoteFolders?.booking,
      bookingUrl: remoteBaseUrl(remotes.booking),
      bookingWords: bookingRelease?.words,
    });
    return {
      head:
        (withData ? pageDataHints(pathname, remotes.api) : '') +
        remoteHints.get(key)! +
        (release ? '' : securedAreaHints(pathname, base, options.remoteFolders?.admin)) +
        words,
      // A parent's English page keeps the page's own `en-MY`.
      lang: remote === 'admin' || locale !== DEFAULT_LOCALE ? HTML_LANG[locale] : undefined,
      title: pageTitleText(pathname, locale),
      noscript: noScriptText(pathname, locale),
    };
  };
}

/** A file of an older retained release of the shell (a page opened before the last release asks for its chunks). */
function olderFile(folders: string[], urlPath: string): string | undefined {
  if (path.extname(urlPath) === '') return undefined;
  for (const folder of folders) {
    const file = resolveFile(folder, urlPath, false);
    if (file) return file;
  }
  return undefined;
}

/** The shell's answers, and `stop` for what runs beside them (the list's version watch of the render step). */
export function shellRequestHandler(options: ShellServerOptions): http.RequestListener & { ready(withinMs: number): Promise<void>; stop(): void } {
  const shellFolders = shellRelease(options.root, options.releasesDir, options.log);
  const contractOf = contractReader();
  const resolveReleases =
    options.followReleases === false
      ? async (_request: http.IncomingMessage, remotes: RemotesJson): Promise<RequestReleases> => ({ remotes, cookies: [], personal: false, hints: {} })
      : releaseResolver({ cacheMs: options.releasesCacheMs, warn: options.log });
  const headFor = options.preloadHints === false ? undefined : pageHeadFor(options);
  const builtPage = pageCache();
  const render =
    headFor && options.serverRender !== false
      ? serverRenderer({
          moduleUrl: () => renderModuleUrl(remoteBaseUrl(options.remotes().booking)),
          apiUrl: () => options.remotes().api,
          budgetMs: options.renderBudgetMs,
          cacheMs: options.renderCacheMs,
          warn: options.log,
        })
      : undefined;
  // The frame needs React and the shell's components: loaded only by a server that renders; a starting one waits for it.
  let frames: typeof import('./frame') | undefined;
  let framesLoading: Promise<unknown> = Promise.resolve();
  if (render) {
    framesLoading = import('./frame').then(
      (loaded) => LOCALES.forEach((locale) => (frames = loaded).frameNow(locale)),
      (error: unknown) => (options.log ?? console.error)(`server render off: the frame did not load (${String(error)})`),
    );
  }
  const renderedPages = new WeakMap<RenderedContent, Map<string, Page>>();
  const renderedPage = (content: RenderedContent, locale: Locale, head: PageHead, indexHtml: string): Page | undefined => {
    const frame = frames?.frameNow(locale);
    if (!frame) return undefined;
    const byHead = renderedPages.get(content) ?? new Map<string, Page>();
    renderedPages.set(content, byHead);
    const key = `${indexHtml}|${head.head}`;
    let page = byHead.get(key);
    if (!page) {
      page = pageOf(serverRenderedPage(fs.readFileSync(indexHtml, 'utf8'), frame, content, head));
      byHead.set(key, page);
    }
    return page;
  };
  const handle: http.RequestListener = (req, res) => {
    const base = options.remotes();
    if (!startAnswer(req, res, { cors: false, contentSecurityPolicy: shellContentSecurityPolicy(base) })) return;
    const { root, older } = shellFolders();
    const indexHtml = path.join(root, 'index.html');
    const urlPath = pathnameOf(req);
    const isConfig = urlPath === '/remotes.json';
    // Deep links (/login, /secured/dashboard) are the page too; a missing file with an extension is not.
    const file = isConfig ? undefined : (resolveFile(root, urlPath, true) ?? olderFile(older, urlPath));
    if (!isConfig && !file) return sendNotFound(res);
    if (!isConfig && (file !== indexHtml || !headFor)) return sendFile(req, res, file!);
    // remotes.json and the page: which release of each remote this visitor gets (live-releases.ts).
    void resolveReleases(req, base, contractOf(root))
      .catch((error: unknown) => {
        (options.log ?? console.error)(`releases: ${error instanceof Error ? error.message : String(error)}; serving the remotes' own addresses`);
        return { remotes: base, cookies: [], personal: false, hints: {} } satisfies RequestReleases;
      })
      .then(({ remotes, cookies, personal, hints }) => {
        for (const cookie of cookies) res.appendHeader('Set-Cookie', cookie);
        if (isConfig) {
          // A canary's or a staff pin's answer is this visitor's own: no shared cache may keep it.
          return sendGenerated(req, res, urlPath, JSON.stringify(remotes, null, 2), personal ? 'private, no-cache' : 'no-cache');
        }
        const context: PageContext = { remotes, root, hints };
        const clientPage = (cacheControl?: string) => {
          sendPage(req, res, builtPage(file!, headFor!(urlPath, req, context)), cacheControl);
        };
        if (urlPath !== '/' || !render) return clientPage();
        const signedIn = new RegExp(`(?:^|;\\s*)${TOKEN_COOKIE}=`).test(req.headers.cookie ?? '');
        // `/` without its render (the API's database away, a render over budget with none before): the page as built,
        // which reads the list itself and says what is wrong; it holds nothing personal, so an edge may keep it as long as
        // a rendered one rather than pass every parent through to this server while the fault lasts.
        const fallback = () => clientPage(signedIn || personal ? undefined : RENDERED_PAGE_CACHE_CONTROL);
        const locale = localeOfRequest(req);
        const fresh = /no-cache|max-age=0/.test(`${req.headers['cache-control'] ?? ''} ${req.headers.pragma ?? ''}`);
        void render(locale, renderModuleUrl(remoteBaseUrl(remotes.booking)), fresh)
          .then((content) => content && renderedPage(content, locale, headFor!(urlPath, req, context, false), indexHtml))
          .then(
            (page) => {
              if (!page) return fallback();
              sendPage(req, res, page, signedIn || personal ? 'private, no-cache' : RENDERED_PAGE_CACHE_CONTROL);
            },
            () => fallback(),
          );
      });
  };
  const ready = async (withinMs: number) => {
    if (render) await Promise.all([render.ready(withinMs), framesLoading]);
  };
  return Object.assign(handle, { ready, stop: () => render?.stop() });
}

/** `index.html` with the frame around the rendered content, its styles, the store state and the first-tap capture. */
function serverRenderedPage(indexHtml: string, frame: Frame, content: RenderedContent, page: PageHead): string {
  const state = JSON.stringify(content.state).replace(/</g, '\\u003c');
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root)) throw new Error('index.html has no empty #root');
  // The timetable says where its buttons are that booking needs JavaScript (a render entry of an older release may not).
  const noscript = content.html.includes('<noscript') ? '' : page.noscript;
  return withHead(indexHtml, { ...page, head: page.head + frame.css + content.css + '<script src="/first-tap.js" async></script>', noscript }).replace(
    root,
    `<div id="root">${frame.around(content.html)}</div><script type="application/json" id="${SERVER_STATE_ID}">${state}</script>`,
  );
}

export async function startShellServer(options: ShellServerOptions & { port: number; host?: string }): Promise<RunningServer> {
  const handler = shellRequestHandler(options);
  await handler.ready(options.readyWithinMs ?? READY_WITHIN_MS);
  const server = await listen(handler, options.port, options.host);
  return {
    ...server,
    close: async () => {
      handler.stop();
      await server.close();
    },
  };
}
