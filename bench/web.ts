// `npm run bench:web`: first load of `/` and `/secured/dashboard` from the production bundles and the real API, in
// headless Chromium slowed through the DevTools protocol (4x CPU, slow 4G); written to docs/PERFORMANCE.md.
import zlib from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { desktopViewport, phoneViewport } from '../e2e/support/page';
import { distDir, freePorts, startStack, type Stack } from '../e2e/support/product';
import { startShellServer } from '../shell/server/shell-server';
import { measureRenderRates, renderRates } from './web-render';
import { floorText, measureFloor, slowDown, type Floor, type SlowProfile } from './web-floor';
import { startConnectionSetup, type ConnectionSetup } from './web-connections';
import { buildIfNeeded } from '../scripts/product';
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

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
