// `npm run bench:web`: first load of `/` and `/secured/dashboard` from the production bundles and the real API, in
// headless Chromium slowed through the DevTools protocol (4x CPU, slow 4G); written to docs/PERFORMANCE.md.
// BENCH_STAFF=1: the staff side instead (Login pressed → first dashboard row on a phone and a desk; the staff list's
// bytes on the wire with 1,000 future slots), its own section.
import http from 'node:http';
import zlib from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { desktopViewport, phoneViewport } from '../e2e/support/page';
import { distDir, freePorts, startStack, type Stack } from '../e2e/support/product';
import { startShellServer } from '../shell/server/shell-server';
import { measureRenderRates, renderRates } from './web-render';
import { floorText, measureFloor, slowDown, type Floor, type SlowProfile } from './web-floor';
import { startConnectionSetup, type ConnectionSetup } from './web-connections';
import { buildIfNeeded, stopChild } from '../scripts/product';
import { createDatabase, createSlots, startServer, staffToken as apiStaffToken, type Server } from './api/server';
import { loadAverage, median, today, writeDocSection } from './doc';
import { LOCALE_COOKIE, type Locale } from 'shared-api/contract';
import { runLighthouse, type LighthouseResult } from './lighthouse';

const runs = Math.max(1, Number(process.env.BENCH_RUNS) || 5);
const section = '## Web first load (bench:web)';

/** Lighthouse's "slow 4G" as the issue states it: 150 ms latency, 1.6 Mbps down, 750 Kbps up; CPU 4x slower. */
export const slowProfile: SlowProfile = { latencyMs: 150, downloadKbps: 1600, uploadKbps: 750, cpuSlowdown: 4 };

type Case = {
  path: string;
  /** How the table names the case (the path, and the language when it is not English). */
  name: string;
  /** A parent who chose this language before (the switcher's cookie). */
  locale?: Locale;
  /** What "ready" means on this page (the figure reported as "ready"). */
  readyLabel: string;
  /** Body of a function run in the page: returns the candidates; the first one visible marks the page as ready. */
  readyFinder: string;
  /** The data request the ready element is drawn from: the end of the request chain. */
  dataRequest: RegExp;
  viewport: { width: number; height: number };
  staff: boolean;
  /** Served by a second shell server with server rendering off (SERVER_RENDER=0): today's client-rendered page. */
  clientRendered?: boolean;
  /** A first visit: each new connection pays its DNS, TCP and TLS round trips (web-connections.ts). */
  firstVisit?: boolean;
};

const home: Omit<Case, 'name'> = {
  path: '/',
  readyLabel: 'first slot button visible',
  // The e2e helper's definition: a button in the main region whose name carries a time.
  readyFinder: `return [...document.querySelectorAll('main button')].filter((b) => /\\d{1,2}[:.]\\d{2}/.test(b.textContent || ''));`,
  dataRequest: /\/public\/list\?/,
  viewport: phoneViewport,
  staff: false,
};

const cases: Case[] = [
  { ...home, name: '`/`' },
  { ...home, name: '`/` in Bahasa Melayu', locale: 'ms' },
  { ...home, name: '`/` client-rendered', clientRendered: true },
  { ...home, name: '`/` in Bahasa Melayu, client-rendered', locale: 'ms', clientRendered: true },
  { ...home, name: '`/`, first visit', firstVisit: true },
  { ...home, name: '`/` in Bahasa Melayu, first visit', locale: 'ms', firstVisit: true },
  { ...home, name: '`/` client-rendered, first visit', clientRendered: true, firstVisit: true },
  { ...home, name: '`/` in Bahasa Melayu, client-rendered, first visit', locale: 'ms', clientRendered: true, firstVisit: true },
  {
    path: '/secured/dashboard',
    name: '`/secured/dashboard`',
    readyLabel: 'first slot row visible',
    readyFinder: `return [...document.querySelectorAll('main tbody tr:not([data-testid="skeleton-row"])')];`,
    dataRequest: /\/slot\/list/,
    viewport: desktopViewport,
    staff: true,
  },
];

type Timed = { url: string; kind: string; start: number; end: number };
type Load = {
  requests: number;
  scripts: number;
  jsGzipKb: number;
  readyMs: number;
  lcpMs: number;
  cls: number;
  /** When the HTML document had fully arrived. */
  htmlMs: number;
  /** When the app's own first render replaced the server's markup (the client page: when it became ready). */
  appMs: number;
  chain: Timed[];
};

declare global {
  interface Window {
    __bench?: { ready: number | null; lcp: number; cls: number; app: number | null };
  }
}

/** Runs before the page's own scripts: records LCP, CLS and the first frame after the ready element appeared. */
const initScript = (readyFinder: string) => `(() => {
  const bench = (window.__bench = { ready: null, lcp: 0, cls: 0, app: null });
  // A server-rendered page's markup is replaced by the app's first render: from then on a tap is the app's.
  new MutationObserver((_, self) => {
    if (bench.app !== null || !document.body) return;
    const root = document.getElementById('root');
    if (root && root.firstElementChild && !root.querySelector('main[data-server-rendered]')) { bench.app = performance.now(); self.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) bench.lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) bench.cls += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
  bench.tasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) bench.tasks.push([Math.round(e.startTime), Math.round(e.duration)]); })
    .observe({ type: 'longtask', buffered: true });
  const find = () => { ${readyFinder} };
  const shown = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  // Looked for once a frame, before its layout: a look at each parser chunk forced a layout every time and delayed
  // the very paint it measures. Found in a frame: that frame paints it, and "ready" is the next frame's start.
  let planned = false;
  let seen = false;
  const look = () => {
    planned = false;
    if (seen || !find().some(shown)) return;
    seen = true;
    observer.disconnect();
    requestAnimationFrame(() => { bench.ready = performance.now(); });
  };
  const observer = new MutationObserver(() => {
    if (!planned) { planned = true; requestAnimationFrame(look); }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();`;

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

function kindOf(request: Request, urls: Stack['urls']): string {
  const url = new URL(request.url());
  if (request.resourceType() === 'document') return 'HTML';
  if (url.origin === urls.api) return `API ${url.pathname}`;
  const file = url.pathname.split('/').pop() ?? '';
  const bundle =
    url.origin === urls.shell
      ? 'shell'
      : url.origin === urls.booking
        ? 'booking'
        : url.origin === urls.admin
          ? 'admin'
          : url.origin;
  return `${bundle} ${file}`;
}

/**
 * The longest sequence of requests in which each one started only after the previous one had finished, ending at
 * the data request: the round trips the page waited through, one after another, before it could draw the data.
 */
function longestChain(timed: Timed[], end: Timed | undefined): Timed[] {
  if (!end) return [];
  const sorted = [...timed].filter((t) => t.start <= end.start).sort((a, b) => a.start - b.start);
  const depth = new Map<Timed, { length: number; previous?: Timed }>();
  for (const item of sorted) {
    let best: { length: number; previous?: Timed } = { length: 1 };
    for (const before of sorted) {
      if (before === item || before.end > item.start) continue;
      const d = depth.get(before)!;
      if (!d) continue;
      if (
        d.length + 1 > best.length ||
        (d.length + 1 === best.length && before.end > (best.previous?.end ?? -1))
      ) {
        best = { length: d.length + 1, previous: before };
      }
    }
    depth.set(item, best);
  }
  const chain: Timed[] = [];
  for (let at: Timed | undefined = end; at; at = depth.get(at)?.previous) chain.unshift(at);
  return chain;
}

/** Waits until no request has started or is outstanding for `quietMs`. */
async function networkQuiet(page: Page, pending: Set<Request>, lastActivity: () => number, quietMs = 1500) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (pending.size === 0 && Date.now() - lastActivity() >= quietMs) return;
    await page.waitForTimeout(200);
  }
}

async function loadOnce(product: Stack, testCase: Case, token: string | undefined, clientShell: string, setup: ConnectionSetup): Promise<Load> {
  const shellUrl = testCase.clientRendered ? clientShell : product.urls.shell;
  setup.reset();
  const browser = await launchBrowser({ viewport: testCase.viewport, args: testCase.firstVisit ? setup.args : undefined });
  try {
    const { context } = browser;
    if (token) await context.addCookies([{ name: 'token', value: token, url: shellUrl }]);
    if (testCase.locale) await context.addCookies([{ name: LOCALE_COOKIE, value: testCase.locale, url: shellUrl }]);
    await context.addInitScript(initScript(testCase.readyFinder));
    const page = await context.newPage();
    await slowDown(context, page, slowProfile);

    const requests: Request[] = [];
    const pending = new Set<Request>();
    let lastActivity = Date.now();
    page.on('request', (r) => {
      requests.push(r);
      pending.add(r);
      lastActivity = Date.now();
    });
    const settle = (r: Request) => {
      pending.delete(r);
      lastActivity = Date.now();
    };
    page.on('requestfinished', settle);
    page.on('requestfailed', settle);

    await page.goto(`${shellUrl}${testCase.path}`, { waitUntil: 'commit', timeout: 90_000 });
    await page.waitForFunction(() => window.__bench?.ready != null && window.__bench.app != null, undefined, {
      timeout: 90_000,
      polling: 100,
    });
    await networkQuiet(page, pending, () => lastActivity);
    const metrics = (await page.evaluate(() => window.__bench))!;

    // Request times relative to the navigation (the document request starts at 0).
    const origin = requests[0].timing().startTime;
    const timed: Timed[] = [];
    let gzipBytes = 0;
    let scripts = 0;
    for (const request of requests) {
      const response = await request.response();
      const timing = request.timing();
      timed.push({
        url: request.url(),
        kind: kindOf(request, product.urls),
        start: Math.round(timing.startTime - origin),
        end: Math.round(timing.startTime - origin + Math.max(timing.responseEnd, 0)),
      });
      if (response && request.resourceType() === 'script') {
        scripts += 1;
        gzipBytes += zlib.gzipSync(await response.body(), { level: 9 }).length;
      }
    }
    if (process.env.BENCH_VERBOSE) {
      for (const t of timed) console.log(`  ${t.start}–${t.end} ${t.kind}`);
      const paints = await page.evaluate(() => performance.getEntriesByType('paint').map((e) => `${e.name} ${Math.round(e.startTime)}`));
      console.log(`  ready ${Math.round(metrics.ready ?? 0)}; ${paints.join(', ')}; long tasks [start, ms]: ${JSON.stringify((metrics as { tasks?: unknown }).tasks)}`);
    }
    const data = timed.find((t) => testCase.dataRequest.test(t.url)) ?? timed[0];
    return {
      htmlMs: timed[0].end,
      appMs: Math.round(Math.max(metrics.app ?? 0, testCase.clientRendered ? (metrics.ready ?? 0) : 0)),
      requests: requests.length,
      scripts,
      jsGzipKb: kb(gzipBytes),
      readyMs: Math.round(metrics.ready ?? 0),
      lcpMs: Math.round(metrics.lcp),
      cls: Math.round(metrics.cls * 1000) / 1000,
      chain: longestChain(timed, data),
    };
  } finally {
    await browser.close();
  }
}

/** The demo staff account's token (the API seeds it on its first start), set as the `token` cookie. */
async function staffToken(apiUrl: string): Promise<string> {
  const email = process.env.ADMIN_EMAIL || 'admin@example.com';
  const password = process.env.ADMIN_PASSWORD || 'admin12345';
  const response = await fetch(`${apiUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { data?: { token?: string }; message?: string };
  if (!body.data?.token) throw new Error(`Demo login failed: ${response.status} ${body.message ?? ''}`);
  return body.data.token;
}

type CaseResult = {
  testCase: Case;
  loads: Load[];
  median: { readyMs: number; lcpMs: number; cls: number; htmlMs: number; appMs: number };
  load: string;
};

const chainText = (chain: Timed[]) => chain.map((t) => `${t.kind} (${t.start}–${t.end})`).join(' → ');

function render(results: CaseResult[], lighthouse: LighthouseResult | string, floors: Floor[]): string {
  const lines = [
    section,
    '',
    `Measured by \`npm run bench:web\` on ${today()} (\`BENCH_RUNS=${runs}\`): \`npm run build\`'s production bundles served`,
    "by `npm start`'s servers (shell/server: brotli, immutable hashed files) with the real API on PGlite and its",
    'demo data; each load is cold (fresh Chromium profile) and slowed through the DevTools protocol:',
    `\`Emulation.setCPUThrottlingRate ${slowProfile.cpuSlowdown}\`, \`Network.emulateNetworkConditions\` ${slowProfile.latencyMs} ms latency,`,
    `${slowProfile.downloadKbps / 1000} Mbps down, ${slowProfile.uploadKbps} Kbps up. \`/\` at 390x844 (a phone), \`/secured/dashboard\` at 1280x800 with`,
    'the demo staff account\'s token cookie. Times are ms from navigation start, median of the runs; "ready" is the',
    'first frame after the one that painted the first slot button (`/`) or the first slot row (dashboard), looked for',
    'once a frame (until 2026-11-27 at every DOM change, whose forced layouts delayed a server-rendered page\'s paint).',
    'The machine is shared (2 cores, other engineers building and testing): the load average is given per path.',
    '',
    '`/` is rendered on the shell\'s server (issue 27); the client-rendered rows are the same build served by a second',
    'shell server with `SERVER_RENDER=0` (today\'s page before it, and the page a failed render falls back to). "HTML ms" is',
    'when the document had fully arrived; "app ms" when the app\'s own first render replaced the server\'s markup (from',
    'then a tap is the app\'s; a tap before it is replayed then), for a client-rendered page when it became ready.',
    '',
    '"First visit" rows add what the DevTools emulation leaves out: it delays each response by the latency but opens',
    'connections at once. A phone visiting for the first time pays, per origin, a DNS lookup and then per connection a',
    'TCP and a TLS 1.3 handshake (1 + 2 round trips of 150 ms) before its first request: the browser reaches every',
    'origin through a SOCKS5 proxy that answers each connect only then (`bench/web-connections.ts`). That is the visit',
    "issue 27 describes (\"the HTML itself has arrived … about 0.4–0.6 s on that profile\").",
    '',
    '| path | requests | scripts | JS gzip KB | requests in the longest chain | HTML ms | ready ms | ready ÷ HTML | LCP ms | CLS | app ms | ready ms per run | load average (1/5/15 min) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...results.map((r) => {
      const first = r.loads[0];
      const ratio = Math.round((r.median.readyMs / r.median.htmlMs) * 100) / 100;
      return `| ${r.testCase.name} | ${first.requests} | ${first.scripts} | ${first.jsGzipKb} | ${first.chain.length} | ${r.median.htmlMs} | ${r.median.readyMs} | ${ratio} | ${r.median.lcpMs} | ${r.median.cls} | ${r.median.appMs} | ${r.loads.map((l) => l.readyMs).join(', ')} | ${r.load} |`;
    }),
    '',
    'Longest request chain (each request started only after the previous one had finished; start–end ms, first run):',
    '',
    ...results.map((r) => `- ${r.testCase.name}: ${chainText(r.loads[0].chain)}`),
    '',
    ...floors.map(floorText),
    '',
    `Targets for \`/\` (in English and in Bahasa Melayu): JS ≤ 170 KB gzip; rendered on the server (issue 27): first slot button ≤ 1000 ms and ≤ 1.5 × the HTML's arrival, LCP ≤ 1000 ms, CLS 0, the app taking over no later than the client-rendered page became ready; Lighthouse performance ≥ 95.`,
    '',
    typeof lighthouse === 'string'
      ? `Lighthouse: ${lighthouse}`
      : `Lighthouse ${lighthouse.version} (mobile preset, simulated slow 4G + 4x CPU, \`/\`, median of ${lighthouse.runs.length}): performance ${lighthouse.median.score}, FCP ${lighthouse.median.fcp} ms, LCP ${lighthouse.median.lcp} ms, TBT ${lighthouse.median.tbt} ms, CLS ${lighthouse.median.cls}, speed index ${lighthouse.median.si} ms (scores per run: ${lighthouse.runs.map((r) => r.score).join(', ')}).`,
    '',
  ];
  return lines.join('\n');
}

/** A desk: no CPU slowdown, 40 ms round trips, an office line (bandwidth not the limit). */
export const deskProfile: SlowProfile = { latencyMs: 40, downloadKbps: 50_000, uploadKbps: 10_000, cpuSlowdown: 1 };
const staffSection = '## Staff side: login to the first row, and the staff list on the wire (bench:web)';

/**
 * "Login pressed → first dashboard row": `/login` loaded and filled (not timed), then from the press of Login to the
 * frame after the dashboard's first slot row was painted; the spec's 1.5 s success timer is inside the figure.
 */
type LoginTimes = { readyMs: number; listsAskedMs: number; dashboardMs: number };
async function loginOnce(product: Stack, profile: SlowProfile, viewport: { width: number; height: number }): Promise<LoginTimes> {
  const browser = await launchBrowser({ viewport });
  try {
    const { context } = browser;
    await context.addInitScript(initScript(cases.find((c) => c.staff)!.readyFinder));
    await context.addInitScript(`document.addEventListener('click', (e) => {
      if (e.target instanceof Element && e.target.closest('button[type=submit]')) window.__loginPressed = performance.now();
    }, true);
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => { if (String(args[2]).includes('/secured/')) window.__dashboardAt ??= performance.now(); return replace(...args); };`);
    const page = await context.newPage();
    await slowDown(context, page, profile);
    await page.goto(`${product.urls.shell}/login`, { waitUntil: 'commit', timeout: 90_000 });
    await page.getByLabel('Email').fill(process.env.ADMIN_EMAIL || 'admin@example.com', { timeout: 90_000 });
    await page.getByLabel('Password').fill(process.env.ADMIN_PASSWORD || 'admin12345');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForFunction(() => window.__bench?.ready != null, undefined, { timeout: 90_000, polling: 100 });
    // When the lists were asked for and when the dashboard opened, from the press: the prefetch starts inside the timer.
    return await page.evaluate(() => {
      const w = window as unknown as { __loginPressed: number; __dashboardAt: number };
      const asked = performance.getEntriesByType('resource').filter((e) => /\/slot\/list/.test(e.name)).map((e) => e.startTime);
      return {
        readyMs: Math.round(window.__bench!.ready! - w.__loginPressed),
        listsAskedMs: asked.length ? Math.round(Math.min(...asked) - w.__loginPressed) : -1,
        dashboardMs: Math.round(w.__dashboardAt - w.__loginPressed),
      };
    });
  } finally {
    await browser.close();
  }
}

/** Bytes of `GET /slot/list` as sent for each Accept-Encoding (the body as it travels), and the answer's time. */
async function staffListOnWire(apiUrl: string, token: string) {
  const sizes: { encoding: string; bytes: number; ms: number }[] = [];
  for (const encoding of ['identity', 'gzip', 'br']) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      bytes = await new Promise<number>((resolve, reject) => {
        http
          .get(`${apiUrl}/slot/list`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding } }, (res) => {
            let n = 0;
            res.on('data', (chunk: Buffer) => (n += chunk.length));
            res.on('end', () => resolve(n));
          })
          .on('error', reject);
      });
      times.push(performance.now() - started);
    }
    sizes.push({ encoding, bytes, ms: Math.round(median(times)) });
  }
  return sizes;
}

/** BENCH_STAFF=1: the staff side only (the login on both profiles, the list on the wire with 1,000 future slots). */
async function staffMain() {
  await buildIfNeeded((line) => console.log(line));
  const product = await startStack({ measured: true });
  const figures: { name: string; runs: LoginTimes[] }[] = [];
  try {
    for (const [name, profile, viewport] of [
      // Both at 1280x800 as the dashboard case above: the first row is a table row (a phone's width shows cards).
      ['slowed phone (4x CPU, 150 ms RTT, 1.6 Mbps)', slowProfile, desktopViewport],
      ['desk (no CPU slowdown, 40 ms RTT)', deskProfile, desktopViewport],
    ] as const) {
      const times: LoginTimes[] = [];
      for (let i = 0; i < runs; i++) {
        const t = await loginOnce(product, profile, viewport);
        times.push(t);
        console.log(`login → first row, ${name}, run ${i + 1}: ${t.readyMs} ms; lists asked at ${t.listsAskedMs} ms, dashboard opened at ${t.dashboardMs} ms (load ${loadAverage()})`);
      }
      figures.push({ name, runs: times });
    }
  } finally {
    await product.stop();
  }
  // The list on the wire: its own API on PostgreSQL with 1,000 future slots (the demo data has a few dozen).
  const database = await createDatabase('PostgreSQL');
  let api: Server | undefined;
  let wire: Awaited<ReturnType<typeof staffListOnWire>> = [];
  try {
    api = await startServer(database);
    const token = await apiStaffToken(api.url);
    await createSlots(api.url, token, 1000);
    wire = await staffListOnWire(api.url, token);
  } finally {
    if (api) await stopChild(api.child);
    await database.drop();
  }
  const lines = [
    staffSection,
    '',
    `Measured by \`BENCH_STAFF=1 npm run bench:web\` on ${today()} (\`BENCH_RUNS=${runs}\`), load average ${loadAverage()} at the end`,
    '(1/5/15 min; the machine is shared: 2 cores, other engineers building and testing). "Login pressed → first row":',
    "`npm run build`'s bundles and the real API (PGlite, demo data) as `npm start` serves them, a cold Chromium per run;",
    '`/login` is loaded and filled untimed, then from the press of Login to the frame after the dashboard\'s first slot',
    "row was painted, the spec's 1.5 s success timer included. Since issue 41 the login fetches the current user, the",
    "dashboard's two lists and the secured area's chunk while its success shows. Before it (issue 41's own figures, taken",
    'on a quiet machine): 3.4 s on the slowed phone, 2.4 s on the desk, the lists asked only after the redirect and `/user`.',
    'Figures taken under a load average far above the 2 cores say little about the goals: compare "lists asked at" with',
    '"dashboard opened at" (the prefetch starts inside the timer), and re-run on a quiet machine.',
    '',
    '| profile | login → first row, median ms | runs ms | lists asked at, median ms | dashboard opened at, median ms | goal |',
    '| --- | --- | --- | --- | --- | --- |',
    ...figures.map(
      (f, i) =>
        `| ${f.name} | ${Math.round(median(f.runs.map((r) => r.readyMs)))} | ${f.runs.map((r) => r.readyMs).join(', ')} | ${Math.round(median(f.runs.map((r) => r.listsAskedMs)))} | ${Math.round(median(f.runs.map((r) => r.dashboardMs)))} | ≤ ${i === 0 ? 1800 : 1600} |`,
    ),
    '',
    `\`GET /slot/list\` with 1,000 future slots (one API process on PostgreSQL, slots made through \`POST /slot/add\`), bytes of`,
    'the body as sent; before issue 41 the API compressed nothing, so every caller got the identity row:',
    '',
    '| Accept-Encoding | bytes on the wire | median ms (loopback) |',
    '| --- | --- | --- |',
    ...wire.map((w) => `| ${w.encoding} | ${w.bytes.toLocaleString('en')} (${kb(w.bytes)} KB) | ${w.ms} |`),
    '',
  ];
  console.log(lines.join('\n'));
  console.log(`Written to ${writeDocSection(staffSection, lines.join('\n'))}`);
}

async function main() {
  await buildIfNeeded((line) => console.log(line));
  const [clientPort] = await freePorts(1);
  const clientShellUrl = `http://localhost:${clientPort}`;
  const product = await startStack({ measured: true, extraOrigins: [clientShellUrl, `http://127.0.0.1:${clientPort}`] });
  // The same build served with rendering off: today's client-rendered page, for comparison.
  const clientShell = await startShellServer({
    root: distDir('shell'),
    port: clientPort,
    remotes: () => product.remotes,
    remoteFolders: { booking: distDir('booking-remote'), admin: distDir('admin-remote') },
    serverRender: false,
  });
  const setup = await startConnectionSetup(slowProfile.latencyMs);
  try {
    const token = await staffToken(product.urls.api);
    const results: CaseResult[] = [];
    // BENCH_CASES=<text>: only the cases whose name has it, printed and not written to the doc (a quick look).
    const only = process.env.BENCH_CASES;
    for (const testCase of cases.filter((c) => !only || c.name.includes(only))) {
      const loads: Load[] = [];
      for (let i = 0; i < runs; i++) {
        const load = await loadOnce(product, testCase, testCase.staff ? token : undefined, clientShellUrl, setup);
        console.log(
          `${testCase.name} run ${i + 1}: ready ${load.readyMs} ms, LCP ${load.lcpMs} ms, CLS ${load.cls}, ${load.requests} requests, JS ${load.jsGzipKb} KB gzip (load ${loadAverage()})`,
        );
        loads.push(load);
      }
      const result: CaseResult = {
        testCase,
        loads,
        median: {
          readyMs: Math.round(median(loads.map((l) => l.readyMs))),
          lcpMs: Math.round(median(loads.map((l) => l.lcpMs))),
          cls: median(loads.map((l) => l.cls)),
          htmlMs: Math.round(median(loads.map((l) => l.htmlMs))),
          appMs: Math.round(median(loads.map((l) => l.appMs))),
        },
        load: loadAverage(),
      };
      console.log(
        `${testCase.name} median: ready ${result.median.readyMs} ms, LCP ${result.median.lcpMs} ms, CLS ${result.median.cls}`,
      );
      console.log(`  chain: ${chainText(loads[0].chain)}`);
      results.push(result);
    }
    const floors = [await measureFloor(slowProfile, runs), await measureFloor(slowProfile, runs, setup)];
    floors.forEach((floor) => console.log(floorText(floor)));
    if (only) return;
    const lighthouse = await runLighthouse(`${product.urls.shell}/`);
    if (typeof lighthouse === 'string') console.log(`Lighthouse: ${lighthouse}`);
    else
      console.log(`Lighthouse performance (median of ${lighthouse.runs.length}): ${lighthouse.median.score}`);
    const rates = await measureRenderRates(product);
    const file = writeDocSection(section, render(results, lighthouse, floors) + '\n' + renderRates(rates));
    console.log(`Written to ${file}`);
  } finally {
    await setup.close();
    await clientShell.close();
    await product.stop();
  }
}

(process.env.BENCH_STAFF === '1' ? staffMain() : main()).catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
