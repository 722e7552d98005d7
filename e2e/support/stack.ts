// The product as the journeys and fault tests need it: like support/product.ts (same bundles, static server and
// API entry point) but with a handle on the API process (SIGKILL, restart with other settings) and a remotes.json
// that a test may point elsewhere (a redeployed remote).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfNeeded, remoteEntryUrl, serveRemoteBundle, serveShell, stopChild } from '../../scripts/product';
import { repoRoot } from '../../scripts/bundles';
import { startStaticServer, type StaticServer } from '../../scripts/static-server';
import { freePorts } from './product';

export type RemoteKey = 'booking' | 'admin';

export type StackOptions = {
  /** Environment of the API process (SMTP_URL, SANDBOX_CALLBACK_DELAY_MS, DATABASE_URL...). */
  apiEnv?: NodeJS.ProcessEnv;
};

export type Stack = {
  urls: { shell: string; booking: string; admin: string; api: string };
  dataDir: string;
  /** The API's log lines (JSON) and the stack's own notes, for failure messages. */
  logs: string[];
  /** The shell's remotes.json, served as generated at each request: change it to redeploy a remote elsewhere. */
  remotes: Record<'booking' | 'admin' | 'api', string>;
  stopRemote: (remote: RemoteKey) => Promise<void>;
  startRemote: (remote: RemoteKey) => Promise<void>;
  /** Serves another build of a remote on a new port (as a second CDN folder would); returns its origin. */
  serveFolder: (root: string) => Promise<StaticServer>;
  /** Ends the API at once (no graceful shutdown) and waits until the process is gone. */
  killApi: (signal?: NodeJS.Signals) => Promise<void>;
  /** Starts the API again on the same port and data, with `env` added to the start-up environment. */
  startApi: (env?: NodeJS.ProcessEnv) => Promise<void>;
  stop: () => Promise<void>;
};

let built: Promise<void> | undefined;

/** Builds missing or stale bundles once per Jest worker (the run is --runInBand: once per run). */
export function buildOnce(): Promise<void> {
  built ??= buildIfNeeded((line) => console.log(line));
  return built;
}

async function waitForApi(url: string, child: ChildProcess, logs: string[], timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The API exited during start-up (code ${child.exitCode ?? child.signalCode})\n${logs.slice(-30).join('\n')}`);
    }
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The API did not answer on ${url}/health within ${timeoutMs / 1000} s\n${logs.slice(-30).join('\n')}`);
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  await buildOnce();
  const [shellPort, bookingPort, adminPort, apiPort] = await freePorts(4);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-journey-'));
  const logs: string[] = [];
  const urls = {
    shell: `http://localhost:${shellPort}`,
    booking: `http://localhost:${bookingPort}`,
    admin: `http://localhost:${adminPort}`,
    api: `http://localhost:${apiPort}`,
  };
  const origins = [shellPort, bookingPort, adminPort].flatMap((port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`]);
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'info',
    MAIL_POLL_MS: '300',
    ...options.apiEnv,
    PORT: String(apiPort),
    DATA_DIR: dataDir,
    CORS_ORIGINS: origins.join(','),
    // The gateway sends the browser back to this shell, and calls back this API.
    PUBLIC_SITE_URL: urls.shell,
    API_PUBLIC_URL: urls.api,
  };

  let api: ChildProcess | undefined;
  const spawnApi = async (env: NodeJS.ProcessEnv = {}) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/src/main.ts')], {
      cwd: repoRoot,
      env: { ...baseEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    api = child;
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        logs.push(...lines.filter((line) => line.trim()));
      });
    }
    await waitForApi(urls.api, child, logs);
  };

  const remotes = {
    booking: remoteEntryUrl(urls.booking),
    admin: remoteEntryUrl(urls.admin),
    api: urls.api,
  };
  const servers: Partial<Record<'shell' | RemoteKey, StaticServer>> = {};
  const extraServers: StaticServer[] = [];
  const ports = { booking: bookingPort, admin: adminPort };
  const serveRemote = async (remote: RemoteKey) => {
    servers[remote] ??= await serveRemoteBundle(remote, ports[remote], urls.api);
  };

  const stop = async () => {
    await Promise.all([
      ...Object.values(servers).map((server) => server?.close()),
      ...extraServers.map((server) => server.close()),
      api ? stopChild(api) : undefined,
    ]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    // The same shell server as `npm start`; remotes.json is read at each request, so a test may move a remote.
    servers.shell = await serveShell(shellPort, () => remotes);
    await serveRemote('booking');
    await serveRemote('admin');
    await spawnApi();
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    urls,
    dataDir,
    logs,
    remotes,
    startRemote: serveRemote,
    stopRemote: async (remote) => {
      const server = servers[remote];
      delete servers[remote];
      await server?.close();
    },
    serveFolder: async (root) => {
      const server = await startStaticServer({ root, port: 0, spaFallback: true, cors: true });
      extraServers.push(server);
      return server;
    },
    killApi: async (signal = 'SIGKILL') => {
      const child = api;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
    startApi: spawnApi,
    stop,
  };
}
