// bench:web's render figures (issue 27): how fast the booking remote's render entry draws `/`, and how many pages a
// second the shell's server answers with every request rendered (the cache cold) and from its cache, against a file.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { LOCALES, PUBLIC_TIMETABLE_LIST_PATH, type Locale } from 'shared-api/contract';
import { distDir, freePorts, repoRoot, type Stack } from '../e2e/support/product';
import { evaluateModule, type RenderModule } from '../shell/server/server-render';
import { requireFromServer } from './api/server';
import { loadAverage } from './doc';

const seconds = Math.max(1, Number(process.env.BENCH_RENDER_SECONDS) || 5);
const connections = 20;
const autocannonBin = path.join(path.dirname(requireFromServer.resolve('autocannon/package.json')), 'autocannon.js');

type Cannon = { rps: number; p50: number; p99: number; non2xx: number; errors: number };
export type RenderRates = {
  /** Renders a second of the entry itself, one language after the other, in this one thread. */
  direct: Record<Locale, number>;
  http: { label: string; cannon: Cannon }[];
  load: string;
};

function autocannon(url: string, headers: string[]): Promise<Cannon> {
  return new Promise((resolve, reject) => {
    const args = [autocannonBin, '-c', String(connections), '-d', String(seconds), '-j', ...headers.flatMap((h) => ['-H', h]), url];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.once('exit', () => {
      try {
        const r = JSON.parse(out) as { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number };
        resolve({ rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts });
      } catch {
        reject(new Error(`autocannon failed: ${out}`));
      }
    });
  });
}

/** The shell's server alone in its own process (one core), as `node --import tsx shell/server/main.ts` runs it. */
async function startShellProcess(product: Stack, port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'shell', 'server', 'main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SHELL_DIST: distDir('shell'),
      BOOKING_DIST: distDir('booking-remote'),
      BOOKING_REMOTE_URL: product.urls.booking,
      ADMIN_REMOTE_URL: product.urls.admin,
      API_URL: product.urls.api,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const end = Date.now() + 30_000;
  for (;;) {
    const html = await fetch(`http://127.0.0.1:${port}/`, { headers: { cookie: 'lang=ms' } }).then((r) => r.text(), () => '');
    if (html.includes('id="server-state"')) return child;
    if (Date.now() > end) throw new Error('the shell server did not render /');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const stopProcess = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

export async function measureRenderRates(product: Stack): Promise<RenderRates> {
  const source = await (await fetch(`${product.urls.booking}/server/render.js`)).text();
  const entry = evaluateModule(source, 'render.js') as RenderModule;
  const list: unknown = await (await fetch(`${product.urls.api}${PUBLIC_TIMETABLE_LIST_PATH}`)).json();
  const direct = {} as Record<Locale, number>;
  for (const lang of LOCALES) {
    for (let i = 0; i < 20; i++) await entry.render({ lang, list, now: Date.now() });
    const start = performance.now();
    let count = 0;
    while (performance.now() - start < 2000) {
      await entry.render({ lang, list, now: Date.now() });
      count += 1;
    }
    direct[lang] = Math.round((count / (performance.now() - start)) * 1000);
    console.log(`render entry, ${lang}: ${direct[lang]} renders/s`);
  }

  const http: RenderRates['http'] = [];
  const [coldPort, cachedPort] = await freePorts(2);
  for (const [label, port, env] of [
    ['every request rendered (RENDER_CACHE_MS=0)', coldPort, { RENDER_CACHE_MS: '0', RENDER_BUDGET_MS: '1000' }],
    ['rendered pages kept 5 s (default)', cachedPort, {}],
  ] as const) {
    const shell = await startShellProcess(product, port, env);
    try {
      for (const lang of ['en', 'ms'] as const) {
        const cannon = await autocannon(`http://127.0.0.1:${port}/`, [`Cookie=lang=${lang}`]);
        http.push({ label: `\`/\` (${lang}), ${label}`, cannon });
        console.log(`${label}, ${lang}: ${cannon.rps} req/s, p99 ${cannon.p99} ms`);
      }
      if (port === cachedPort) {
        const cannon = await autocannon(`http://127.0.0.1:${port}/first-tap.js`, []);
        http.push({ label: 'a static file of the same server (`/first-tap.js`)', cannon });
        console.log(`static file: ${cannon.rps} req/s`);
      }
    } finally {
      await stopProcess(shell);
    }
  }
  return { direct, http, load: loadAverage() };
}

export function renderRates(rates: RenderRates): string {
  return [
    `Rendering \`/\` on the shell's server (bench:web, the same run; ${connections} connections for ${seconds} s from autocannon's own process against`,
    "the shell's server alone in its process, `shell/server/main.ts`, one core; the API and the remotes from the stack above;",
    `load average ${rates.load}). The booking remote's render entry alone, in one thread: ${LOCALES.map((l) => `${rates.direct[l]} renders/s (${l})`).join(', ')}.`,
    '',
    '| what | req/s | p50 ms | p99 ms | non-2xx | errors |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rates.http.map(({ label, cannon }) => `| ${label} | ${cannon.rps} | ${cannon.p50} | ${cannon.p99} | ${cannon.non2xx} | ${cannon.errors} |`),
    '',
  ].join('\n');
}
