// Starts the whole product as `npm start` does: the API (child process) and the three production bundles.
// The one start-up of scripts/start.ts, the e2e tests (e2e/support/product.ts, e2e/support/stack.ts) and the bundle benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleNames, distDir, needsBuild, repoRoot } from './bundles';
import type http from 'node:http';
import { DEFAULT_LOCALE, HTML_LANG, isLocale, LOCALE_COOKIE, PUBLIC_TIMETABLE_LIST_PATH, type Locale } from 'shared-api/contract';
import type { BundleName } from './rspack-common';
import { contentSecurityPolicy, startStaticServer, type StaticServer } from './static-server';
// The shell's own rule for which remote a path shows: hints for the wrong remote would be wasted downloads.
import { remoteForPath } from '../shell/src/app/remoteForPath';

export type Ports = { shell: number; booking: number; admin: number; api: number };

export const portsFromEnv = (env: NodeJS.ProcessEnv = process.env): Ports => ({
  shell: Number(env.SHELL_PORT) || 3000,
  booking: Number(env.BOOKING_PORT) || 3001,
  admin: Number(env.ADMIN_PORT) || 3002,
  api: Number(env.PORT) || 4000,
});

export type RemoteKey = 'booking' | 'admin';

export type ProductOptions = {
  ports: Ports;
  /** The API's data folder (PGlite); defaults to the server's own default (./.data). */
  dataDir?: string;
  /** Extra environment for the API process. */
  apiEnv?: NodeJS.ProcessEnv;
  /** Where the product's own log lines go (default: console.log). */
  log?: (line: string) => void;
  /** Build missing or stale bundles first (default true). */
  build?: boolean;
  /** Print every line of the API's log instead of only the notable ones. */
  verboseApi?: boolean;
  /** More browser origins the API must accept (e.g. a measurement build served on another port). */
  extraOrigins?: string[];
  /** Receives every line the API writes (JSON), as written. */
  apiLines?: (line: string) => void;
  /** Wait for /health to answer 200 (the database ready) rather than for any answer. */
  untilHealthy?: boolean;
};

export type Product = {
  urls: { shell: string; booking: string; admin: string; api: string };
  /** The shell's remotes.json, served as generated at each request: change it to redeploy a remote elsewhere. */
  remotes: RemotesJson;
  /** Stops serving one remote (to show that the other keeps working). */
  stopRemote: (remote: RemoteKey) => Promise<void>;
  startRemote: (remote: RemoteKey) => Promise<void>;
  stop: () => Promise<void>;
  /** Settles when the first API process ends (on its own or through stop()). */
  apiExited: Promise<number | null>;
  /** Ends the API with `signal` (no graceful shutdown with SIGKILL) and waits until the process is gone. */
  killApi: (signal?: NodeJS.Signals) => Promise<void>;
  /** Starts the API again on the same port and data, with `env` added to its environment. */
  restartApi: (env?: NodeJS.ProcessEnv) => Promise<void>;
};

const bundleOf: Record<RemoteKey, BundleName> = { booking: 'booking-remote', admin: 'admin-remote' };


/** How `remotes.json` addresses a remote served at `baseUrl`: its federation entry (no manifest round trip). */
export const remoteEntryUrl = (baseUrl: string): string => `${baseUrl}/remoteEntry.js`;

/**
 * Preload hints for the shell's HTML, generated at deploy (here: start) time from where the remote lives: its entry
 * and the chunks of its exposed routes (named in its mf-manifest.json on disk) start downloading with the shell's
 * own script instead of after it has run. A chunk name goes stale if the remote is redeployed alone: one wasted fetch.
 */
export function remotePreloadHints(remote: RemoteKey, remoteUrl: string): string {
  // Chromium hands a failed preload to the next script of its URL: with the remote down at page load, the shell's
  // Retry spends these first (shell/src/federation/entryRetryPlugin.ts; e2e/deploy/retry.e2e.test.ts).
  const tags = [`<link rel="preload" href="${remoteEntryUrl(remoteUrl)}" as="script">`];
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(distDir(bundleOf[remote]), 'mf-manifest.json'), 'utf8')) as {
      exposes?: { path: string; assets: { js: { sync: string[] } } }[];
    };
    const routes = manifest.exposes?.find((expose) => expose.path === './routes');
    for (const file of routes?.assets.js.sync ?? []) tags.push(`<link rel="preload" href="${remoteUrl}/${file}" as="script">`);
  } catch {
    // no manifest on disk (remote deployed elsewhere): no hints, the page loads as without them
  }
  return tags.join('');
}

/**
 * The data a page draws first, preloaded from the HTML so that it downloads with the code instead of after it: `/`
 * is the timetable, whose list call is exactly PUBLIC_TIMETABLE_LIST_PATH. `anonymous` matches the API client's
 * fetch (CORS, no credentials); a signed-in staff member's call carries a token header and simply refetches.
 */
export function pageDataHints(pathname: string, apiUrl: string): string {
  if (pathname !== '/') return '';
  return `<link rel="preload" href="${apiUrl}${PUBLIC_TIMETABLE_LIST_PATH}" as="fetch" crossorigin="anonymous">`;
}

/** The language a returning parent chose (the `lang` cookie the shell's language select writes); English otherwise. */
export function localeOfRequest(request: http.IncomingMessage): Locale {
  const match = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]+)`).exec(request.headers.cookie ?? '');
  return isLocale(match?.[1]) ? match[1] : DEFAULT_LOCALE;
}

/** A built chunk by its name (`frame-ms` → `frame-ms.<hash>.js`), if the bundle has one on disk. */
function chunkFile(bundle: BundleName, name: string): string | undefined {
  try {
    return fs.readdirSync(distDir(bundle)).find((file) => file.startsWith(`${name}.`) && file.endsWith('.js'));
  } catch {
    return undefined;
  }
}

/**
 * For a language other than English, the chunks its first load fetches after the code (the frame's words and date
 * words; on `/` also the timetable's words, from the booking remote) start with the code instead.
 */
export function languageHints(locale: Locale, pathname: string, bookingEntry: string): string {
  if (locale === DEFAULT_LOCALE) return '';
  const frame = chunkFile('shell', `frame-${locale}`);
  const home = pathname === '/' ? chunkFile('booking-remote', `home-${locale}`) : undefined;
  const bookingBase = bookingEntry.replace(/\/remoteEntry\.js$/, '');
  return [frame && `<link rel="preload" href="/${frame}" as="script">`, home && `<link rel="preload" href="${bookingBase}/${home}" as="script">`]
    .filter(Boolean)
    .join('');
}

/** `errorReportUrl` (optional): where the shell's error boundaries post browser errors; absent, none are sent. */
export type RemotesJson = Record<RemoteKey | 'api', string> & { errorReportUrl?: string };

const originOf = (url: string): string => new URL(url).origin;

/**
 * The shell's Content-Security-Policy: the remotes' code (and images), the API's data and the error reports' endpoint,
 * where remotes.json puts them.
 */
export function shellContentSecurityPolicy(remotes: RemotesJson): string {
  const remoteOrigins = [originOf(remotes.booking), originOf(remotes.admin)];
  const reportOrigins = remotes.errorReportUrl ? [originOf(remotes.errorReportUrl)] : [];
  return contentSecurityPolicy({
    scripts: remoteOrigins,
    connect: [originOf(remotes.api), ...remoteOrigins, ...reportOrigins],
    images: remoteOrigins,
  });
}

/**
 * The shell's static server as deployed: deep links answered with index.html, `remotes.json` generated at each
 * request (so a remote can move without touching the shell), preload hints for the page's remote and a
 * Content-Security-Policy naming the remotes' and the API's origins of that same remotes.json.
 */
export function serveShell(port: number, remotes: () => RemotesJson): Promise<StaticServer> {
  const hintsCache = new Map<string, string>();
  const hintsFor = (pathname: string, request: http.IncomingMessage) => {
    const current = remotes();
    const remote = remoteForPath(pathname);
    const base = current[remote].replace(/\/remoteEntry\.js$/, '');
    const key = `${remote} ${base}`;
    if (!hintsCache.has(key)) hintsCache.set(key, remotePreloadHints(remote, base));
    const locale = localeOfRequest(request);
    return {
      head: pageDataHints(pathname, current.api) + hintsCache.get(key)! + languageHints(locale, pathname, current.booking),
      // English keeps the page's own `en-MY`.
      lang: locale === DEFAULT_LOCALE ? undefined : HTML_LANG[locale],
    };
  };
  return startStaticServer({
    root: distDir('shell'),
    port,
    spaFallback: true,
    cors: false,
    generated: {
      get '/remotes.json'() {
        return JSON.stringify(remotes(), null, 2);
      },
    },
    htmlHead: process.env.PRELOAD_HINTS === '0' ? undefined : hintsFor,
    contentSecurityPolicy: () => shellContentSecurityPolicy(remotes()),
  });
}

/**
 * A remote's static server as deployed: CORS for the shell, its standalone page, and `/config.json` for that page,
 * whose policy lets it call the API.
 */
export function serveRemoteBundle(remote: RemoteKey, port: number, apiUrl: string, root = distDir(bundleOf[remote])): Promise<StaticServer> {
  return startStaticServer({
    root,
    port,
    spaFallback: true,
    cors: true,
    // The remote's standalone page reads its API address here (the shell uses remotes.json).
    generated: { '/config.json': JSON.stringify({ api: apiUrl }) },
    contentSecurityPolicy: () => contentSecurityPolicy({ connect: [originOf(apiUrl)] }),
  });
}

/** Runs `npm run build`'s script for the bundles that are missing or older than their sources. */
export async function buildIfNeeded(log: (line: string) => void, force = false): Promise<void> {
  const stale = force ? bundleNames : bundleNames.filter(needsBuild);
  if (stale.length === 0) return;
  log(`Building ${stale.join(', ')} (production)...`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/build.ts'), ...stale], {
      cwd: repoRoot,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build exited with code ${code}`))));
  });
}

/** Resolves when the child has exited; SIGKILL after the grace period. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

// The API logs JSON lines (pino); show the ones a person starting the product needs.
function notableApiLine(line: string, verbose: boolean): string | undefined {
  if (!line.trim()) return undefined;
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
    const message = entry.msg ?? '';
    if (verbose) return message || line;
    if ((entry.level ?? 30) >= 40) return `${message}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
    if (/demo|login|listening|database/i.test(message)) return message;
    return undefined;
  } catch {
    return line;
  }
}

function startApi(options: ProductOptions, origins: string[], log: (line: string) => void, extraEnv: NodeJS.ProcessEnv = {}): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.apiEnv,
    ...extraEnv,
    PORT: String(options.ports.api),
    CORS_ORIGINS: origins.join(','),
  };
  // The gateway sends parents back to this shell and calls back this API, whatever ports they were started on.
  env.PUBLIC_SITE_URL ??= `http://localhost:${options.ports.shell}`;
  env.API_PUBLIC_URL ??= `http://localhost:${options.ports.api}`;
  if (options.dataDir) env.DATA_DIR = options.dataDir;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/src/main.ts')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group: Ctrl-C reaches only the parent, which then stops the API once, in order.
    detached: true,
  });
  // Never leave an orphan API behind, even if the parent dies abruptly.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const forward = (stream: NodeJS.ReadableStream | null) => {
    let buffer = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line.trim()) options.apiLines?.(line);
        const shown = notableApiLine(line, Boolean(options.verboseApi));
        if (shown) log(`[api] ${shown}`);
      }
    });
  };
  forward(child.stdout);
  forward(child.stderr);
  return child;
}

async function waitForApi(url: string, child: ChildProcess, untilHealthy: boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The API exited during start-up (code ${child.exitCode ?? child.signalCode})`);
    }
    try {
      // Any answer means it listens; /health itself reports a database problem to the page.
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok || !untilHealthy) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The API did not answer on ${url}/health within ${timeoutMs / 1000} s`);
}

export async function startProduct(options: ProductOptions): Promise<Product> {
  const log = options.log ?? ((line: string) => console.log(line));
  if (options.build !== false) await buildIfNeeded(log);

  const { ports } = options;
  const urls = {
    shell: `http://localhost:${ports.shell}`,
    booking: `http://localhost:${ports.booking}`,
    admin: `http://localhost:${ports.admin}`,
    api: `http://localhost:${ports.api}`,
  };
  const origins = [
    ...[ports.shell, ports.booking, ports.admin].flatMap((port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`]),
    ...(options.extraOrigins ?? []),
  ];
  const remotes: RemotesJson = { booking: remoteEntryUrl(urls.booking), admin: remoteEntryUrl(urls.admin), api: urls.api };

  let api = startApi(options, origins, log);
  const apiExited = new Promise<number | null>((resolve) => api.once('exit', (code) => resolve(code)));
  const untilHealthy = Boolean(options.untilHealthy);
  const servers: Partial<Record<'shell' | RemoteKey, StaticServer>> = {};
  const serveRemote = async (remote: RemoteKey) => {
    servers[remote] ??= await serveRemoteBundle(remote, ports[remote], urls.api);
  };

  const stop = async () => {
    await Promise.all([
      ...Object.values(servers).map((server) => server?.close()),
      stopChild(api),
    ]);
  };

  try {
    servers.shell = await serveShell(ports.shell, () => remotes);
    await serveRemote('booking');
    await serveRemote('admin');
    await waitForApi(urls.api, api, untilHealthy);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    urls,
    remotes,
    stop,
    apiExited,
    killApi: async (signal = 'SIGKILL') => {
      if (api.exitCode !== null || api.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        api.once('exit', () => resolve());
        api.kill(signal);
      });
    },
    restartApi: async (env = {}) => {
      api = startApi(options, origins, log, env);
      await waitForApi(urls.api, api, untilHealthy);
    },
    startRemote: serveRemote,
    stopRemote: async (remote) => {
      const server = servers[remote];
      delete servers[remote];
      await server?.close();
    },
  };
}
