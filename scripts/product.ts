// Starts the whole product as `npm start` does: the API (child process) and the three production bundles.
// The one start-up of scripts/start.ts, the e2e tests (e2e/support/product.ts) and the benchmarks. The shell's server
// is the shell's own code (shell/server); the remotes' folders are served with its static layer, as a CDN would.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { bundleNames, distDir, needsBuild, releasesDirOf, releasesRoot, repoRoot } from './bundles';
import { migrateBeforeServing } from './release-layout';
import type { BundleName } from './rspack-common';
import { remotePageContentSecurityPolicy } from '../shell/server/policy';
import { remoteEntryUrl, type RemoteKey, type RemotesJson } from '../shell/server/remotes';
import { startShellServer } from '../shell/server/shell-server';
import { startStaticServer, type RunningServer } from '../shell/server/static-files';

export type Ports = { shell: number; booking: number; admin: number; api: number };

export const portsFromEnv = (env: NodeJS.ProcessEnv = process.env): Ports => ({
  shell: Number(env.SHELL_PORT) || 3000,
  booking: Number(env.BOOKING_PORT) || 3001,
  admin: Number(env.ADMIN_PORT) || 3002,
  api: Number(env.PORT) || 4000,
});

export type { RemoteKey, RemotesJson };

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
  /** Where the bundles' releases are (`npm run release`; default `$RELEASES_DIR` or `.releases`): served at `<host>/releases/`. */
  releasesDir?: string;
  /** The shell's longest wait for a server render (default `$RENDER_BUDGET_MS`, else the shell's own 150 ms). */
  renderBudgetMs?: number;
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

/**
 * The shell's production server (shell/server) on its built folder, with remotes.json generated at each request from
 * `remotes` and the remotes' builds on this machine read for their preload hints.
 */
function serveShell(port: number, remotes: () => RemotesJson, releases: string, renderBudgetMs?: number): Promise<RunningServer> {
  return startShellServer({
    root: distDir('shell'),
    releasesDir: releasesDirOf('shell', releases),
    releasesCacheMs: process.env.RELEASES_CACHE_MS ? Number(process.env.RELEASES_CACHE_MS) : undefined,
    port,
    remotes,
    remoteFolders: { booking: distDir('booking-remote'), admin: distDir('admin-remote') },
    preloadHints: process.env.PRELOAD_HINTS !== '0',
    serverRender: process.env.SERVER_RENDER !== '0',
    renderBudgetMs: renderBudgetMs ?? (process.env.RENDER_BUDGET_MS ? Number(process.env.RENDER_BUDGET_MS) : undefined),
  });
}

/**
 * A remote's folder served as its static host would (CORS for the shell), and `/config.json` for its standalone page,
 * whose policy lets it call the API.
 */
function serveRemoteBundle(remote: RemoteKey, port: number, apiUrl: string, releases: string, root = distDir(bundleOf[remote])): Promise<RunningServer> {
  return startStaticServer({
    root,
    // Its releases and their pointer (npm run release), beside the plain build, as on its CDN.
    releaseMounts: { '/releases/': releasesDirOf(bundleOf[remote], releases) },
    port,
    spaFallback: true,
    cors: true,
    // The remote's standalone page reads its API address here (the shell uses remotes.json).
    generated: { '/config.json': JSON.stringify({ api: apiUrl }) },
    contentSecurityPolicy: remotePageContentSecurityPolicy(apiUrl),
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

/** Waits (up to 15 s) until `/` comes rendered on the server: its entry and frame load as the shell's server starts. */
async function untilServerRendered(shellUrl: string): Promise<void> {
  const end = Date.now() + 15_000;
  while (Date.now() < end) {
    const html = await fetch(`${shellUrl}/`).then((response) => response.text(), () => '');
    if (html.includes('id="server-state"')) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
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
  const releases = options.releasesDir ?? releasesRoot();
  await migrateBeforeServing(bundleNames, options.releasesDir, log);

  let api = startApi(options, origins, log);
  const apiExited = new Promise<number | null>((resolve) => api.once('exit', (code) => resolve(code)));
  const untilHealthy = Boolean(options.untilHealthy);
  const servers: Partial<Record<'shell' | RemoteKey, RunningServer>> = {};
  const serveRemote = async (remote: RemoteKey) => {
    servers[remote] ??= await serveRemoteBundle(remote, ports[remote], urls.api, releases);
  };

  const stop = async () => {
    await Promise.all([
      ...Object.values(servers).map((server) => server?.close()),
      stopChild(api),
    ]);
  };

  try {
    // The remotes first: the shell's server loads the booking remote's render entry as it starts.
    await serveRemote('booking');
    await serveRemote('admin');
    servers.shell = await serveShell(ports.shell, () => remotes, releases, options.renderBudgetMs);
    await waitForApi(urls.api, api, untilHealthy);
    if (process.env.SERVER_RENDER !== '0') await untilServerRendered(urls.shell);
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
