// Rendering `/` on this server: the booking remote's render entry (loaded from the remote's address at run time, so a
// release of the remote alone changes the HTML) draws the timetable from the public list; this server puts it in the
// frame. An answer slower than the budget gives the last good render (at most LAST_GOOD_MS old), else, like any
// failure, the client-rendered page: never a new way to fail.
import { createHash } from 'node:crypto';
import vm from 'node:vm';
import { createRequire } from 'node:module';
import { LOCALES, PUBLIC_LIST_CHANGES_PATH, PUBLIC_TIMETABLE_LIST_PATH, type Locale } from 'shared-api/contract';

/** What a remote's render entry exports (booking-remote/src/server/render.tsx). */
export type RenderModule = {
  render(input: { lang: Locale; list: unknown; now: number }): Promise<{ html: string; css: string; state: Record<string, unknown> }>;
};

/** The page's content as rendered: markup, its style tags, and the store state for the page's own store. */
export type RenderedContent = { html: string; css: string; state: Record<string, unknown> };

export type ServerRenderOptions = {
  /** Where the remote's render entry is (`<booking>/server/render.js`), now (a request may name its own release's). */
  moduleUrl: () => string;
  /** The API's address, now. */
  apiUrl: () => string;
  /** Longest a request waits for the list and the render together. */
  budgetMs?: number;
  /** How long a rendered page is served again for its language (and how often the entry is asked if it changed). */
  cacheMs?: number;
  warn?: (line: string) => void;
  now?: () => number;
};

export const RENDER_BUDGET_MS = 150;
export const RENDER_CACHE_MS = 5000;
/** A list read is used again, while the API says the list has not changed, for at most this long: its own cache's. */
export const LIST_REUSE_MS = 1000;
/** A render newer than this is served while a newer one is slower than the budget (enrolment day), not the client page. */
export const LAST_GOOD_MS = 30_000;

const nodeRequire = createRequire(__filename);

/** Evaluates a CommonJS module's source (one self-contained file) and returns its exports. */
export function evaluateModule(source: string, filename: string): unknown {
  const module = { exports: {} as unknown };
  const run = vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename }) as (
    ...args: unknown[]
  ) => void;
  run(module.exports, nodeRequire, module, filename, '/');
  return module.exports;
}

const isRenderModule = (value: unknown): value is RenderModule =>
  typeof (value as Partial<RenderModule> | null)?.render === 'function';

/**
 * A remote's render entries by address, each fetched and asked again (If-None-Match) at most every `checkMs`; a request
 * never waits for that: it uses the module in hand (none yet: the client page) while the next one loads. Several are
 * kept (a canary's release and the live one are both in use); the least recently used beyond `keep` is dropped.
 */
export function renderModuleSource(checkMs: number, warn: (line: string) => void, now: () => number, keep = 4) {
  type Entry = { etag?: string; module?: RenderModule; version: number; checking?: Promise<void>; checkedAt: number };
  const entries = new Map<string, Entry>();
  let version = 0;
  const check = async (url: string, entry: Entry) => {
    const response = await fetch(url, { headers: entry.module && entry.etag ? { 'If-None-Match': entry.etag } : {} });
    if (response.status === 304 && entry.module) return;
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    const exported = evaluateModule(await response.text(), url);
    if (!isRenderModule(exported)) throw new Error(`${url} exports no render function`);
    version += 1;
    Object.assign(entry, { etag: response.headers.get('etag') ?? undefined, module: exported, version });
  };
  return (url: string): { module: RenderModule; version: number } | undefined => {
    let entry = entries.get(url);
    if (entry) entries.delete(url);
    entry ??= { version: 0, checkedAt: -Infinity };
    entries.set(url, entry);
    if (entries.size > keep) entries.delete(entries.keys().next().value!);
    // Without a module (the remote not up yet, a broken release) it is asked for again within a second.
    const due = entry.module ? checkMs : Math.min(checkMs, 1000);
    if (!entry.checking && now() - entry.checkedAt >= due) {
      const current = entry;
      current.checkedAt = now();
      current.checking = check(url, current)
        .catch((error: unknown) => {
          // Gone or broken: the client page until a good one is back.
          current.module = undefined;
          warn(`server render: ${describeError(error)}`);
        })
        .finally(() => (current.checking = undefined));
    }
    return entry.module ? { module: entry.module, version: entry.version } : undefined;
  };
}

export type ListVersionWatch = {
  /** The public list's version while the API holds a request that it answers the moment the list changes; else undefined. */
  current(): number | undefined;
  stop(): void;
};

/**
 * Follows the public list's version by a long poll (GET /public/list/changes?after=<version>): one request waits at
 * the API at all times and comes back when a slot changed, so pages need not each ask for the list. Down, refused or
 * unknown (an API without the route): no version, and every page reads the list, as before.
 */
export function listVersionWatch(apiUrl: () => string, warn: (line: string) => void): ListVersionWatch {
  let version: number | undefined;
  let stopped = false;
  const stop = new AbortController();
  void (async () => {
    let after: number | undefined;
    while (!stopped) {
      try {
        const query = after === undefined ? '' : `?after=${after}`;
        const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(40_000)]);
        const response = await fetch(`${apiUrl()}${PUBLIC_LIST_CHANGES_PATH}${query}`, { signal, headers: { accept: 'application/json' } });
        if (!response.ok) throw new Error(`list changes: ${response.status}`);
        const next = ((await response.json()) as { data: { version: number } }).data.version;
        // The next ask goes out at once: the API answers it the moment the list moves past this version.
        version = next;
        after = next;
      } catch (error) {
        if (stopped) return;
        if (version !== undefined || after !== undefined) warn(`server render: ${describeError(error)}; reading the list for each page`);
        version = undefined;
        after = undefined;
        await new Promise((resolve) => setTimeout(resolve, 1000).unref());
      }
    }
  })();
  return {
    current: () => version,
    stop: () => {
      stopped = true;
      stop.abort();
    },
  };
}

/** An error's message with its cause's (fetch says only "fetch failed"; the cause says refused, reset or closed). */
export function describeError(error: unknown): string {
  // Not `instanceof Error`: fetch's errors may come from another realm.
  const { message, cause } = (error ?? {}) as { message?: unknown; cause?: { code?: string; message?: string } };
  if (typeof message !== 'string') return String(error);
  const why = cause?.code ?? cause?.message;
  return why ? `${message} (${why})` : message;
}

/** The budget ran out before the render came (the render goes on, and is kept for the pages after). */
class BudgetMissed extends Error {}
const timeout = (ms: number) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new BudgetMissed(`over the ${ms} ms budget`)), ms).unref());

/**
 * `/`'s content in a language, or undefined (render entry not loaded yet, list or render failed or slow). The list is
 * read again when the API says it changed (listVersionWatch) and at least every second, else for every request
 * (requests arriving during a read share it), so the page is as fresh as the list; a render is reused while the
 * list, the language and the entry are the same, for at most `cacheMs` (its "last updated" stamp).
 */
/** `fresh`: the browser asked for a fresh answer (a reload: `Cache-Control: max-age=0` or `no-cache`). */
export type ServerRenderer = ((locale: Locale, moduleUrl?: string, fresh?: boolean) => Promise<RenderedContent | undefined>) & {
  /** Resolves once the entry is loaded and every language drawn once, or after `withinMs`, whichever is first. */
  ready(withinMs: number): Promise<void>;
  stop(): void;
};

export function serverRenderer(options: ServerRenderOptions): ServerRenderer {
  const budgetMs = options.budgetMs ?? RENDER_BUDGET_MS;
  const cacheMs = options.cacheMs ?? RENDER_CACHE_MS;
  const warn = options.warn ?? ((line: string) => console.error(line));
  const now = options.now ?? Date.now;
  // The entry is asked if it changed as often as a page is kept (never more than 4 times a second).
  const modules = renderModuleSource(Math.max(cacheMs, 250), warn, now);
  const moduleOf = (url = options.moduleUrl()) => modules(url);
  moduleOf();
  const cache = new Map<string, { at: number; content: Promise<RenderedContent> }>();
  type ListRead = { body: string; hash: string; version: number | undefined; at: number };
  let reading: Promise<ListRead> | undefined;
  let lastRead: ListRead | undefined;
  let lastWarning = -Infinity;
  const versions = listVersionWatch(options.apiUrl, warn);
  const readList = (fresh: boolean): Promise<ListRead> => {
    // The last read while the API says the list has not moved since (and for a second at most: holds run out by time).
    const version = versions.current();
    if (!fresh && version !== undefined && lastRead?.version === version && now() - lastRead.at < LIST_REUSE_MS) return Promise.resolve(lastRead);
    const read = async () => {
      const at = now();
      // Not cut at the budget: a slow read still serves the requests that join it (2 s at most).
      const response = await fetch(`${options.apiUrl()}${PUBLIC_TIMETABLE_LIST_PATH}`, { signal: AbortSignal.timeout(Math.max(budgetMs, 2000)) });
      if (!response.ok) throw new Error(`public list: ${response.status}`);
      const body = await response.text();
      // The version known when the read began: a change since then makes the next page read again.
      lastRead = { body, hash: createHash('sha256').update(body).digest('base64'), version, at };
      return lastRead;
    };
    // A reload (the browser asks for a fresh answer) reads on its own: not even a read already under way will do.
    if (fresh) return read();
    reading ??= read().finally(() => (reading = undefined));
    return reading;
  };
  const draw = async (locale: Locale, loaded: { module: RenderModule; version: number }, fresh = false): Promise<RenderedContent> => {
    const { body, hash } = await readList(fresh);
    const key = `${locale} ${loaded.version} ${hash}`;
    const cached = cache.get(key);
    if (cached && now() - cached.at < cacheMs) return cached.content;
    if (cache.size > 50) cache.clear();
    const content = loaded.module.render({ lang: locale, list: JSON.parse(body) as unknown, now: now() });
    cache.set(key, { at: now(), content });
    content.catch(() => cache.delete(key));
    return content;
  };
  const warmed = new Set<number>();
  // Each language's newest finished render by each entry: what a page gets while the next render is slower than the budget.
  const lastGood = new Map<string, { startedAt: number; at: number; content: RenderedContent }>();
  const keepGood = (key: string, startedAt: number, content: RenderedContent) => {
    const known = lastGood.get(key);
    if (known && known.startedAt > startedAt) return;
    if (!known && lastGood.size > 50) lastGood.clear();
    lastGood.set(key, { startedAt, at: now(), content });
  };
  const render = async (locale: Locale, moduleUrl?: string, fresh = false) => {
    const loaded = moduleOf(moduleUrl);
    if (!loaded) return undefined;
    if (!warmed.has(loaded.version)) {
      // A new entry's first render of a language loads its words: done for all at once, off this request's budget.
      if (warmed.size > 20) warmed.clear();
      warmed.add(loaded.version);
      for (const other of LOCALES) if (other !== locale) void draw(other, loaded).catch(() => undefined);
    }
    const goodKey = `${locale} ${loaded.version}`;
    const startedAt = now();
    const drawing = draw(locale, loaded, fresh);
    drawing.then((content) => keepGood(goodKey, startedAt, content), () => undefined);
    try {
      return await Promise.race([drawing, timeout(budgetMs)]);
    } catch (error) {
      // Slower than the budget (a busy server): this entry's last good render, while recent. Not on a failure (the API's
      // database away): the parent then gets the client page, which says so and offers Retry, never slots it cannot book.
      const good = lastGood.get(goodKey);
      if (error instanceof BudgetMissed && good && now() - good.at <= LAST_GOOD_MS) return good.content;
      // Said at most every 10 s: a dead API would otherwise write a line per visitor.
      if (now() - lastWarning > 10_000) {
        lastWarning = now();
        warn(`server render of / (${locale}) failed, serving the client page: ${describeError(error)}`);
      }
      return undefined;
    }
  };
  // A server starting (or restarted after a crash) listens once it can render: its first pages are not the client page.
  const ready = async (withinMs: number) => {
    const until = Date.now() + withinMs;
    // Not unref'd: before it listens, these timers are what keeps a starting process alive.
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let loaded = moduleOf();
    while (!loaded && Date.now() < until) {
      await pause(50);
      loaded = moduleOf();
    }
    if (!loaded) return;
    const entry = loaded;
    const drawn = Promise.all(
      LOCALES.map((locale) => {
        const startedAt = now();
        return draw(locale, entry).then((content) => keepGood(`${locale} ${entry.version}`, startedAt, content), () => undefined);
      }),
    );
    await Promise.race([drawn, pause(Math.max(0, until - Date.now()))]);
  };
  return Object.assign(render, { ready, stop: versions.stop });
}
