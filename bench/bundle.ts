// `npm run bench:bundle`: first-load cost of `/` and `/login` (requests, JS gzip KB), written to docs/PERFORMANCE.md.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { desktopViewport, phoneViewport, slotButtons, visible } from '../e2e/support/page';
import { freePorts, startStack, type Stack } from '../e2e/support/product';
import { analyse, buildOne, precompress } from '../scripts/build';
import os from 'node:os';
import { analysisFile, bundleNames, repoRoot } from '../scripts/bundles';
import { buildIfNeeded } from '../scripts/product';
import { remoteEntryUrl } from '../shell/server/remotes';
import { startStaticServer } from '../shell/server/static-files';
import type { BundleAnalysis } from '../scripts/build';
import type { BundleName } from '../scripts/rspack-common';
import { LOCALE_COOKIE, LOCALE_NAMES, type Locale } from 'shared-api/contract';

const budgetKb = 170;
const section = '## Bundle budget (first load)';

type LoadedScript = {
  bundle: string;
  file: string;
  gzipBytes: number;
  wireBytes: number;
  packages: Record<string, number>;
};
type FirstLoad = {
  path: string;
  requests: number;
  scripts: LoadedScript[];
  jsGzipKb: number;
  jsWireKb: number;
};

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

async function measure(
  url: string,
  pathName: string,
  ready: (page: Page) => Promise<void>,
  contents: Record<string, BundleAnalysis>,
  bundleByOrigin: Record<string, BundleName>,
  viewport: { width: number; height: number },
  locale?: Locale,
): Promise<FirstLoad> {
  const browser = await launchBrowser({ viewport });
  try {
    // A parent who chose a language before (the switcher's cookie): its catalogues and day names load too.
    if (locale) await browser.context.addCookies([{ name: LOCALE_COOKIE, value: locale, url }]);
    const page = await browser.context.newPage();
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.goto(`${url}${pathName}`);
    await ready(page);
    await page.waitForLoadState('networkidle');
    const scripts: LoadedScript[] = [];
    for (const request of requests) {
      const response = await request.response();
      if (!response || request.resourceType() !== 'script') continue;
      const body = await response.body();
      const sizes = await request.sizes();
      const parsed = new URL(request.url());
      const bundle = bundleByOrigin[parsed.origin] ?? parsed.origin;
      const file = parsed.pathname.slice(1);
      scripts.push({
        bundle,
        file,
        gzipBytes: zlib.gzipSync(body, { level: 9 }).length,
        wireBytes: sizes.responseBodySize,
        packages: contents[bundle]?.[file] ?? {},
      });
    }
    const total = (pick: (s: LoadedScript) => number) => scripts.reduce((sum, s) => sum + pick(s), 0);
    return {
      path: locale ? `${pathName} in ${LOCALE_NAMES[locale]}` : pathName,
      requests: requests.length,
      scripts: scripts.sort((a, b) => b.gzipBytes - a.gzipBytes),
      jsGzipKb: kb(total((s) => s.gzipBytes)),
      jsWireKb: kb(total((s) => s.wireBytes)),
    };
  } finally {
    await browser.close();
  }
}

const packageLabel = (pkg: string) => (pkg.startsWith('@module-federation/') ? 'federation runtime' : pkg);

/** Gzip KB per package, estimated by sharing each file's gzip size in proportion to its packages' source bytes. */
function costByPackage(scripts: LoadedScript[]): [string, number][] {
  const cost: Record<string, number> = {};
  for (const script of scripts) {
    const entries = Object.entries(script.packages);
    const total = entries.reduce((sum, [, bytes]) => sum + bytes, 0);
    if (total === 0) {
      const label =
        script.file === 'remoteEntry.js' ? `federation runtime (${script.bundle})` : `${script.bundle} glue`;
      cost[label] = (cost[label] ?? 0) + script.gzipBytes;
      continue;
    }
    for (const [pkg, bytes] of entries) {
      const label = packageLabel(pkg);
      cost[label] = (cost[label] ?? 0) + (script.gzipBytes * bytes) / total;
    }
  }
  return Object.entries(cost).sort((a, b) => b[1] - a[1]);
}

function describeFile(script: LoadedScript): string {
  const labels = [...new Set(Object.keys(script.packages).map(packageLabel))];
  if (script.file === 'remoteEntry.js' && !labels.includes('federation runtime'))
    labels.push('federation runtime');
  return labels.length
    ? labels.slice(0, 6).join(', ') + (labels.length > 6 ? ', ...' : '')
    : '(federation glue)';
}

function renderSection(loads: FirstLoad[], byPackage: [string, number][], date: string): string {
  const home = loads[0];
  const lines = [
    section,
    '',
    `Measured by \`npm run bench:bundle\` on ${date}: production bundles served by \`npm start\`'s servers (brotli on the`,
    'wire), each path loaded cold in a fresh headless Chromium profile until the network is idle (`/` at 390x844 as a',
    "parent's phone, `/login` at 1280x800).",
    '"JS gzip KB" is the sum of every loaded script gzipped at level 9 (the budget\'s unit); "wire KB" is what',
    'was actually transferred (brotli). Requests count everything the page fetched (HTML, JS, remotes.json,',
    'manifests, API calls).',
    '',
    '| first load | requests | scripts | JS gzip KB | JS on the wire KB (br) |',
    '| --- | --- | --- | --- | --- |',
    ...loads.map(
      (l) => `| \`${l.path}\` | ${l.requests} | ${l.scripts.length} | ${l.jsGzipKb} | ${l.jsWireKb} |`,
    ),
    '',
    `Goal for \`/\`: at most ${budgetKb} KB gzip of JS, in English and in Bahasa Melayu. Reached: ${loads
      .filter((l) => l.path.startsWith('/ ') || l.path === '/')
      .map(
        (l) =>
          `${l.jsGzipKb} KB (${l.path}: ${l.jsGzipKb <= budgetKb ? 'within' : `${kb((l.jsGzipKb - budgetKb) * 1024)} KB over`} the goal)`,
      )
      .join(', ')}.`,
    '',
    'Biggest costs on `/`, by package (gzip KB, measured on a second build of the shell with one chunk per',
    'package and nothing eager, loading the same remotes; a chunk carrying several packages is shared out by',
    'their source bytes):',
    '',
    '| package | KB |',
    '| --- | --- |',
    ...byPackage.slice(0, 16).map(([pkg, bytes]) => `| ${pkg} | ${kb(bytes)} |`),
    '',
    'Applied (see "Micro-frontends and delivery" in docs/ARCHITECTURE.md): `/` fetches only the booking remote;',
    "`shareStrategy: 'loaded-first'`; federation `optimization.target: 'web'`; the federation runtime from its ESM",
    "build (the default CommonJS build made a remote's entry ~11 KB larger); react-router's production files, shared as a",
    'declarative-router subset (all of react-router-dom shared costs ~60 KB, the subset ~14); @reduxjs/toolkit and',
    "styled-components reached only through shared-api / shared-ui; the shell's shared modules eager (one main",
    "chunk instead of ~15 requests); the remotes' production builds take the federation runtime core from the",
    "shell (`externalRuntime` / `provideExternalRuntime`: a remote's entry went from ~21 to ~9.5 KB; its standalone",
    'page loads `federation-runtime.js` first instead); brotli / gzip pre-compressed at build time; hashed files',
    "cached immutably; the contract's zod schemas out of shared-api's root (shared-api is shared whole, and a",
    "shared module is never tree-shaken): they are `shared-api/schemas`, bundled only into the booking dialog's lazy",
    'chunk (zod was ~26 KB of `/`, 203.1 KB before this step). Then (177.6 → 169.3 KB): GMT+8 as a fixed offset, so',
    "dayjs's timezone and customParseFormat plugins left the bundles (-2 KB); the remotes addressed by their",
    '`remoteEntry.js` with `disableSnapshot` in every bundle (-1.4 KB); the router subset cut to the nine APIs used;',
    'the federation bundler runtime that the plugin injects by its CommonJS path mapped to its ESM build, and the',
    'federation error codes without their descriptions (scripts/federation/error-codes.ts; remoteEntry.js 9.6 → 7.7 KB);',
    "forms, dialogs, tables, cards, badges and the menu out of shared-ui's shared core (`shared-ui/forms`,",
    '`shared-ui/data`, carried by the bundles that use them: -2.4 KB).',
    'Then, for the three languages (issue 14: 169.6 KB before, 173.3 KB with Lingui and the switcher): react-redux',
    'shared as its hooks-and-Provider subset (`scripts/federation/react-redux.ts`; `connect` was most of it: -1.9 KB);',
    "catalogues compiled by messageformat into plain functions instead of Lingui's runtime (-1.7 KB); the first load's",
    'GMT+8 days and words computed without dayjs (`shared-api` root is dayjs-free, dayjs comes with `shared-api/time` in',
    'the lazy chunks: -3 KB). A Malay page adds two small chunks (frame-ms: the frame\'s and design system\'s words and',
    'the date words; home-ms: the timetable\'s words): 1.7 KB.',
    'Then, for issue 24 (the day strip, next available and the fees on the timetable: +1.1 KB, Malay 170.5 KB, over the',
    'goal): the payment-in-progress notice and its words fetched only when the browser keeps a booking draft (-0.5 KB);',
    "the schools' addresses and years (`brand.config.json` `schoolDetails`) and the calendar builder that reads them kept",
    "out of shared-api's root (`shared-api/schools`, `shared-api/calendar`): the bundler drops a JSON key no first-load",
    'module reads, so they cost `/` nothing. Then (168.5 / 170.2 KB before): the federation runtime core\'s snapshot',
    'handler (manifests, preloadRemote) and asset preloader (preloadRemote), which no bundle reaches with',
    '`disableSnapshot`, swapped for stubs that throw if ever called (`scripts/federation/runtime-stubs.ts`: -2.4 KB).',
    '',
    'What would cut the rest, largest first:',
    '- RTK + immer (~23 KB) come whole with shared-api (createApi, combineSlices, configureStore); a lighter',
    '  store would mean leaving RTK Query, which the house rules choose.',
    "- The federation runtime (~33 KB with the remote's entry): each remote entry still carries its own bundler",
    '  runtime (~5 KB), which keeps per-container state and so cannot simply be taken from the shell.',
    "- react-router (~13 KB): a `Link` built on `useHref` + `useLinkClickHandler` instead of react-router's saved",
    '  nothing measurable (tried), so the cost is in `Routes` / the router context.',
    '- react-dom (~63 KB) is the floor of this stack.',
    '',
    'Files loaded by `/`:',
    '',
    '| KB gzip | bundle | file | carries |',
    '| --- | --- | --- | --- |',
    ...home.scripts.map((s) => `| ${kb(s.gzipBytes)} | ${s.bundle} | \`${s.file}\` | ${describeFile(s)} |`),
    '',
  ];
  return lines.join('\n');
}

/** Replaces this section only (other sections of the file belong to others). */
function writeSection(markdown: string): string {
  const file = path.join(repoRoot, 'docs', 'PERFORMANCE.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Performance\n';
  const start = existing.indexOf(section);
  let next: string;
  if (start < 0) {
    next = `${existing.trimEnd()}\n\n${markdown}`;
  } else {
    const after = existing.indexOf('\n## ', start + section.length);
    next = existing.slice(0, start) + markdown + (after < 0 ? '' : `\n${existing.slice(after + 1)}`);
  }
  fs.writeFileSync(file, next.trimEnd() + '\n');
  return file;
}

/**
 * The real shell puts every shared package in one eager chunk, so per-package costs are measured on a second
 * build of the shell (one chunk per package, nothing eager) loading the same remotes. Its total differs a little
 * from the real one (chunk overhead); only the per-package figures are taken from it.
 */
async function measureByPackage(
  product: Stack,
  splitPort: number,
  contents: Record<string, BundleAnalysis>,
): Promise<[string, number][]> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-split-'));
  const shellDir = path.join(outDir, 'shell');
  try {
    const stats = await buildOne('shell', {
      outputDir: shellDir,
      statsFile: path.join(outDir, 'shell.stats.json'),
      env: { BUNDLE_SPLIT_PACKAGES: '1' },
    });
    precompress(shellDir);
    const remotesJson = JSON.stringify({
      booking: remoteEntryUrl(product.urls.booking),
      admin: remoteEntryUrl(product.urls.admin),
      api: product.urls.api,
    });
    const server = await startStaticServer({
      root: shellDir,
      port: splitPort,
      spaFallback: true,
      cors: false,
      generated: { '/remotes.json': remotesJson },
    });
    try {
      const splitContents = { ...contents, 'shell-split': analyse(stats) };
      const load = await measure(
        server.url,
        '/',
        (page) => visible(slotButtons(page), 60_000),
        splitContents,
        {
          [server.url]: 'shell-split' as BundleName,
          [product.urls.booking]: 'booking-remote',
          [product.urls.admin]: 'admin-remote',
        },
        phoneViewport,
      );
      if (process.env.BENCH_VERBOSE)
        for (const x of load.scripts)
          console.log(`  split: ${kb(x.gzipBytes)} KB ${x.bundle}/${x.file} ${describeFile(x)}`);
      return costByPackage(load.scripts);
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

async function main() {
  await buildIfNeeded((line) => console.log(line));
  const [splitPort] = await freePorts(1);
  const product = await startStack({ measured: true, extraOrigins: [`http://localhost:${splitPort}`] });
  try {
    const contents = Object.fromEntries(
      bundleNames.map((name) => [
        name,
        JSON.parse(fs.readFileSync(analysisFile(name), 'utf8')) as BundleAnalysis,
      ]),
    );
    const bundleByOrigin: Record<string, BundleName> = {
      [product.urls.shell]: 'shell',
      [product.urls.booking]: 'booking-remote',
      [product.urls.admin]: 'admin-remote',
    };
    const loads = [
      // `/` as a parent on a phone sees it; `/login` as staff at a desktop.
      await measure(
        product.urls.shell,
        '/',
        (page) => visible(slotButtons(page), 60_000),
        contents,
        bundleByOrigin,
        phoneViewport,
      ),
      await measure(
        product.urls.shell,
        '/',
        (page) => visible(slotButtons(page), 60_000),
        contents,
        bundleByOrigin,
        phoneViewport,
        'ms',
      ),
      await measure(
        product.urls.shell,
        '/login',
        (page) => visible(page.getByLabel(/password/i), 60_000),
        contents,
        bundleByOrigin,
        desktopViewport,
      ),
    ];
    for (const load of loads) {
      console.log(
        `\n${load.path}: ${load.requests} requests, ${load.scripts.length} scripts, JS ${load.jsGzipKb} KB gzip (${load.jsWireKb} KB br on the wire)`,
      );
      for (const s of load.scripts)
        console.log(`  ${String(kb(s.gzipBytes)).padStart(6)} KB  ${s.bundle}/${s.file}  ${describeFile(s)}`);
    }
    const byPackage = await measureByPackage(product, splitPort, contents);
    console.log('\n/ by package (measured on a one-chunk-per-package build of the shell):');
    for (const [pkg, bytes] of byPackage.slice(0, 16))
      console.log(`  ${String(kb(bytes)).padStart(6)} KB  ${pkg}`);
    const file = writeSection(renderSection(loads, byPackage, new Date().toISOString().slice(0, 10)));
    console.log(`\nWritten to ${path.relative(repoRoot, file)}`);
  } finally {
    await product.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
