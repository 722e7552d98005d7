// `/` rendered on the shell's server: the booking remote's render entry (a file in the remote's folder, served as its
// CDN would) draws the page from the API's public list; any failure gives the page as built.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brandTitle, PUBLIC_LIST_CHANGES_PATH, PUBLIC_TIMETABLE_LIST_PATH } from 'shared-api/contract';
import { remoteEntryUrl, type RemotesJson } from './remotes';
import { describeError, serverRenderer } from './server-render';
import { RENDERED_PAGE_CACHE_CONTROL, renderModuleUrl, startShellServer } from './shell-server';
import { startStaticServer, type RunningServer } from './static-files';

const builtHtml = '<!doctype html><html lang="en-MY"><head><title>t</title></head><body><noscript><p class="no-js">x</p></noscript><div id="root"></div></body></html>';
const clientPageMarker = '<div id="root"></div>';

/** A release of the booking remote's render entry: draws the list's first time, the language and its own label. */
const renderEntry = (label: string, body = '') => `
exports.render = async function render(input) {
  ${body}
  const first = input.list.data[0];
  return {
    html: '<section><button type="button">' + input.lang + ' ' + first.startTime + ' ${label}</button></section>',
    css: '<style data-test>.${label}{}</style>',
    state: { api: { release: '${label}', lang: input.lang, now: input.now } },
  };
};`;

let root: string;
let bookingFolder: string;
let booking: RunningServer;
let api: { url: string; requests: number; answer: { status: number; body: unknown }; delayMs: number; close: () => Promise<void> };
let shell: RunningServer;
let warnings: string[];

const writeEntry = (source: string) => {
  fs.mkdirSync(path.join(bookingFolder, 'server'), { recursive: true });
  fs.writeFileSync(path.join(bookingFolder, 'server', 'render.js'), source);
  // A new file gets a new ETag: an ETag is the size and time, so make the time differ too.
  const later = new Date(Date.now() + Math.floor(Math.random() * 1e6));
  fs.utimesSync(path.join(bookingFolder, 'server', 'render.js'), later, later);
};

async function startApi() {
  const state = { requests: 0, delayMs: 0, answer: { status: 200, body: { data: [{ startTime: '09:00' }] } as unknown } };
  const server = http.createServer((request, response) => {
    if (request.url !== PUBLIC_TIMETABLE_LIST_PATH) return void response.writeHead(404).end();
    state.requests += 1;
    const { status, body } = state.answer;
    setTimeout(() => response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)), state.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, { url, close: () => new Promise<void>((done) => server.close(() => done())) });
}

async function eventually<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const page = (headers: Record<string, string> = {}) => fetch(`${shell.url}/`, { headers: { 'accept-encoding': 'identity', ...headers } });
const renderedWith = (text: string, headers: Record<string, string> = {}) =>
  eventually(async () => {
    const html = await (await page(headers)).text();
    return html.includes(text) ? html : undefined;
  }, `a page with "${text}"`);

// Each step may wait up to 10 s for a page (eventually): the test's own limit is above that, not Jest's 5 s default.
jest.setTimeout(30_000);

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-render-'));
  bookingFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-render-booking-'));
  fs.writeFileSync(path.join(root, 'index.html'), builtHtml);
  writeEntry(renderEntry('release-1'));
  booking = await startStaticServer({ root: bookingFolder, port: 0, host: '127.0.0.1', cors: true, spaFallback: false });
  api = await startApi();
  warnings = [];
  const remotes: RemotesJson = { booking: remoteEntryUrl(booking.url), admin: 'http://127.0.0.1:9/remoteEntry.js', api: api.url };
  shell = await startShellServer({ root, port: 0, host: '127.0.0.1', remotes: () => remotes, renderBudgetMs: 150, renderCacheMs: 300, log: (line) => void warnings.push(line) });
});

afterAll(async () => {
  await Promise.all([shell?.close(), booking?.close(), api?.close()]);
  for (const folder of [root, bookingFolder]) fs.rmSync(folder, { recursive: true, force: true });
});

afterEach(() => {
  api.answer = { status: 200, body: { data: [{ startTime: '09:00' }] } };
  api.delayMs = 0;
  writeEntry(renderEntry('release-1'));
});

test("/ carries the remote's rendering in the shell's frame, its styles, its store state, and no second fetch of the list", async () => {
  const html = await renderedWith('release-1');
  expect(html).toContain('<section><button type="button">en 09:00 release-1</button></section>');
  // The shell's frame around it: its header (the home link) and the <main> the tap capture watches.
  expect(html).toMatch(/<div id="root"><header[^>]*>.*home.*<\/header><main data-server-rendered=""[^>]*><section>/);
  expect(html).toContain('<style data-test>.release-1{}</style>');
  expect(html).toMatch(/<script type="application\/json" id="server-state">\{"api":\{"release":"release-1","lang":"en","now":\d+\}\}<\/script>/);
  expect(html).toContain('<script src="/first-tap.js" async></script>');
  // The data is in the page: no preload of the list for the browser.
  expect(html).not.toContain(PUBLIC_TIMETABLE_LIST_PATH);
  const response = await page();
  expect(response.headers.get('cache-control')).toBe(RENDERED_PAGE_CACHE_CONTROL);
  expect(response.headers.get('vary')).toBe('Accept-Encoding, Accept-Language, Cookie');
  // A signed-in member of staff gets the same page, but no shared cache keeps it.
  expect((await page({ cookie: 'token=abc' })).headers.get('cache-control')).toBe('private, no-cache');
});

test("the rendered / is titled in the parent's language; the timetable's own no-JavaScript notice replaces the page's line", async () => {
  const noScriptLine = /<noscript><p class="no-js">([^<]*)<\/p><\/noscript>/;
  // A release whose rendering has no notice of its own (an older one): the page keeps its line, in the language.
  const older = await renderedWith('ms 09:00 release-1', { cookie: 'lang=ms' });
  expect(older).toContain(`<title>Tempah lawatan penilaian · ${brandTitle('ms')}</title>`);
  expect(noScriptLine.exec(older)?.[1]).toBe('Halaman tempahan ini memerlukan JavaScript. Sila hidupkannya dalam pelayar anda.');
  // Its notice, and a style for the head that dims the buttons without JavaScript (a <noscript> in the head too).
  const dimmed = '<noscript><style>main button{opacity:.5}</style></noscript>';
  writeEntry(renderEntry('release-2').replace('</button></section>', '</button><noscript>call us</noscript></section>').replace("data-test>.release-2{}</style>'", `data-test>.release-2{}</style>${dimmed}'`));
  const withNotice = await renderedWith('ms 09:00 release-2', { cookie: 'lang=ms' });
  expect(withNotice).toContain('<noscript>call us</noscript>');
  expect(withNotice).not.toMatch(noScriptLine);
  expect(withNotice).toContain(`${dimmed}`);
  expect(withNotice).toContain(`<title>Tempah lawatan penilaian · ${brandTitle('ms')}</title>`);
});

test("in the parent's language: the lang cookie, else the browser's preferred languages", async () => {
  const malay = await renderedWith('ms 09:00 release-1', { cookie: 'lang=ms' });
  expect(malay).toContain('<html lang="ms"');
  // The frame speaks it too (its header's words: Log masuk).
  expect(malay).toContain('Log masuk');
  expect(await renderedWith('zh 09:00 release-1', { 'accept-language': 'fr-FR,zh-CN;q=0.8,en;q=0.5' })).toContain('<html lang="zh-Hans"');
});

test('a release of only the booking remote changes the rendered HTML at the next look (no shell restart)', async () => {
  await renderedWith('release-1');
  writeEntry(renderEntry('release-2'));
  const html = await renderedWith('release-2');
  expect(html).not.toContain('release-1');
});

test('the list is read for each page: a slot taken meanwhile is not drawn from an old list', async () => {
  await renderedWith('en 09:00');
  const before = api.requests;
  api.answer = { status: 200, body: { data: [{ startTime: '10:30' }] } };
  await renderedWith('en 10:30');
  expect(api.requests).toBeGreaterThan(before);
});

test("two releases in use at once (a canary and the live one): each page is drawn by its own release's entry", async () => {
  const canaryFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-render-canary-'));
  fs.mkdirSync(path.join(canaryFolder, 'server'));
  fs.writeFileSync(path.join(canaryFolder, 'server', 'render.js'), renderEntry('canary'));
  const canary = await startStaticServer({ root: canaryFolder, port: 0, host: '127.0.0.1', cors: true, spaFallback: false });
  try {
    writeEntry(renderEntry('live'));
    const render = serverRenderer({ moduleUrl: () => renderModuleUrl(booking.url), apiUrl: () => api.url, warn: () => undefined });
    const drawn = (url: string) => eventually(async () => (await render('en', url))?.html, `a render by ${url}`);
    expect(await drawn(renderModuleUrl(canary.url))).toContain('canary');
    expect(await drawn(renderModuleUrl(booking.url))).toContain('live');
    // Both stay loaded: alternating pages need no new fetch of either entry.
    for (let i = 0; i < 3; i++) {
      expect((await render('en', renderModuleUrl(canary.url)))?.html).toContain('canary');
      expect((await render('en', renderModuleUrl(booking.url)))?.html).toContain('live');
    }
    render.stop();
  } finally {
    await canary.close();
    fs.rmSync(canaryFolder, { recursive: true, force: true });
  }
});

describe("with the API's list version watch (GET /public/list/changes)", () => {
  // An API that holds each `?after=<version>` until `change()` moves the version, as the real one does.
  async function startWatchedApi() {
    const state = { reads: 0, version: 1, startTime: '09:00', waiting: [] as (() => void)[] };
    const server = http.createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      const json = (body: unknown) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      if (url.pathname === PUBLIC_LIST_CHANGES_PATH) {
        const after = url.searchParams.get('after');
        const answer = () => json({ success: true, data: { version: state.version }, message: 'Public list version' });
        if (after === null || Number(after) < state.version) return answer();
        return void state.waiting.push(answer);
      }
      if (request.url !== PUBLIC_TIMETABLE_LIST_PATH) return void response.writeHead(404).end();
      state.reads += 1;
      json({ data: [{ startTime: state.startTime }] });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const change = (startTime: string) => {
      state.startTime = startTime;
      state.version += 1;
      for (const answer of state.waiting.splice(0)) answer();
    };
    const close = () => {
      for (const answer of state.waiting.splice(0)) answer();
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    };
    return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, change, close });
  }

  test('pages reuse one read of the list until a slot changes (a reload reads), then show the change at once', async () => {
    const watched = await startWatchedApi();
    const remotes: RemotesJson = { booking: remoteEntryUrl(booking.url), admin: 'http://127.0.0.1:9/remoteEntry.js', api: watched.url };
    const own = await startShellServer({ root, port: 0, host: '127.0.0.1', remotes: () => remotes, renderBudgetMs: 150, log: () => undefined });
    try {
      const html = () => fetch(`${own.url}/`, { headers: { 'accept-encoding': 'identity' } }).then((r) => r.text());
      await eventually(async () => ((await html()).includes('en 09:00') && watched.waiting.length > 0 ? true : undefined), 'a rendered page, and a wait held at the API');
      const reads = watched.reads;
      for (let i = 0; i < 20; i++) expect(await html()).toContain('en 09:00');
      // Twenty pages, at most one more read (a read is used again for a second at most).
      expect(watched.reads - reads).toBeLessThanOrEqual(1);
      // A reload asks for a fresh answer: it reads the list for itself.
      const before = watched.reads;
      await fetch(`${own.url}/`, { headers: { 'accept-encoding': 'identity', 'cache-control': 'max-age=0' } });
      expect(watched.reads).toBe(before + 1);
      watched.change('10:30');
      await eventually(async () => ((await html()).includes('en 10:30') ? true : undefined), 'the changed list', 2000);
    } finally {
      await own.close();
      await watched.close();
    }
  });
});

describe('any failure serves the page as built', () => {
  const clientPage = async () => {
    const html = await eventually(async () => {
      const text = await (await page()).text();
      return text.includes(clientPageMarker) ? text : undefined;
    }, 'the client page');
    expect(html).toContain(`<link rel="preload" href="${api.url}${PUBLIC_TIMETABLE_LIST_PATH}" as="fetch" crossorigin="anonymous">`);
    expect(html).not.toContain('server-state');
    return html;
  };

  test('the render entry throws', async () => {
    writeEntry(renderEntry('broken', "throw new Error('render broke');"));
    await clientPage();
    // Under load a render may first miss its budget (also the client page): the thrown error is logged by a later one.
    await eventually(async () => (await clientPage(), warnings.some((line) => line.includes('render broke')) ? true : undefined), 'the render error logged');
  });

  test('a new release whose render is slower than the budget: the page as built until its first render ends, then that render', async () => {
    const startedFile = path.join(bookingFolder, 'slow-renders');
    const body = `require('fs').appendFileSync(${JSON.stringify(startedFile)}, 'x'); await new Promise((resolve) => setTimeout(resolve, 1500));`;
    writeEntry(renderEntry('slow', body));
    await eventually(async () => ((await page(), fs.existsSync(startedFile)) ? true : undefined), 'the slow release in use');
    // No render of this release has ended yet: the page as built (never the earlier release's page).
    const html = await (await page()).text();
    expect(html).toContain(clientPageMarker);
    expect(html).not.toContain('release-1');
    // Once one has, pages get it while the next one is made (each render takes 1.5 s, over the 150 ms budget).
    await renderedWith('en 09:00 slow');
  });

  test('the API answers an error (its database away), even right after a render: the page as built, never an older render (it tells the parent, with Retry); an edge may keep it as long as a rendered one', async () => {
    await renderedWith('release-1');
    api.answer = { status: 503, body: { error: 'down' } };
    await clientPage();
    expect((await page()).headers.get('cache-control')).toBe(RENDERED_PAGE_CACHE_CONTROL);
    // A signed-in visitor's page is never one an edge keeps.
    expect((await page({ cookie: 'token=abc' })).headers.get('cache-control')).toBe('no-cache');
  });

  test('the remote has no render entry (an older release) or an entry that is not one', async () => {
    fs.rmSync(path.join(bookingFolder, 'server', 'render.js'));
    await clientPage();
    writeEntry('exports.somethingElse = 1;');
    await clientPage();
  });
});

test('a list slower than the budget (a busy API): the last good render, within the budget, never the page as built; the new list once read', async () => {
  // Its own renderer: one load of the entry, so every render here is by one release.
  const render = serverRenderer({ moduleUrl: () => renderModuleUrl(booking.url), apiUrl: () => api.url, budgetMs: 150, cacheMs: 300, warn: () => undefined });
  try {
    expect(await eventually(async () => (await render('en'))?.html, 'a first render')).toContain('en 09:00 release-1');
    api.delayMs = 400;
    api.answer = { status: 200, body: { data: [{ startTime: '10:30' }] } };
    // Past the 300 ms a render is kept, each page reads the slow list: meanwhile it gets the last good render.
    await new Promise((resolve) => setTimeout(resolve, 350));
    for (let i = 0; i < 5; i++) expect((await render('en'))?.html).toMatch(/en (09:00|10:30) release-1/);
    await eventually(async () => ((await render('en'))?.html.includes('en 10:30') ? true : undefined), 'the new list drawn');
  } finally {
    render.stop();
  }
});

test('a shell server starting (or restarted after a crash) listens once it renders: its very first `/` is rendered', async () => {
  const remotes: RemotesJson = { booking: remoteEntryUrl(booking.url), admin: 'http://127.0.0.1:9/remoteEntry.js', api: api.url };
  const fresh = await startShellServer({ root, port: 0, host: '127.0.0.1', remotes: () => remotes, renderBudgetMs: 150, log: () => undefined });
  try {
    for (const lang of ['en', 'ms']) {
      const answer = await fetch(`${fresh.url}/`, { headers: { 'accept-encoding': 'identity', 'accept-language': lang } });
      expect(answer.headers.get('cache-control')).toBe(RENDERED_PAGE_CACHE_CONTROL);
      expect(await answer.text()).toContain(`${lang} 09:00 release-1`);
    }
  } finally {
    await fresh.close();
  }
});

test('a warning about an API it cannot reach says why, not only "fetch failed"', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const error = await fetch(`http://127.0.0.1:${port}/`).catch((err: unknown) => err);
  expect(describeError(error)).toBe('fetch failed (ECONNREFUSED)');
  expect(describeError(new Error('public list: 503'))).toBe('public list: 503');
});
