// The one way e2e (and the benchmarks) start the product: scripts/product.ts's startProduct, the start-up of `npm start`,
// on free ports and a throw-away data folder, with the API's every log line kept, a remotes.json a test may point
// elsewhere (a redeployed remote) and a handle on the API process (SIGKILL, restart with other settings). Tests import
// what they need of the build from here, never from scripts/ (eslint.config.mjs).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildIfNeeded, startProduct, type Product } from '../../scripts/product';
import { startStaticServer, type RunningServer } from '../../shell/server/static-files';

export { analysisFile, distDir, repoRoot } from '../../scripts/bundles';
export type { BundleAnalysis } from '../../scripts/build';
export type { BundleName } from '../../scripts/rspack-common';
export { remoteEntryUrl, type RemoteKey } from '../../shell/server/remotes';

/** Ports the OS hands out now (never 3000-3002/4000, so a running dev instance is left alone). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export type StackOptions = {
  /** Environment of the API process (SMTP_URL, SANDBOX_CALLBACK_DELAY_MS, DATABASE_URL...), over the tests' defaults. */
  apiEnv?: NodeJS.ProcessEnv;
  /** More browser origins the API must accept (a measurement build served on another port). */
  extraOrigins?: string[];
  /** The API as the benchmarks measure it: warnings only, and its own mail interval rather than the tests' quick one. */
  measured?: boolean;
};

export type Stack = Pick<Product, 'urls' | 'remotes' | 'stopRemote' | 'startRemote' | 'killApi' | 'stop'> & {
  dataDir: string;
  /** This stack's own releases folder (empty at start: the plain builds are served), for `RELEASES_DIR`. */
  releasesDir: string;
  /** The API's log lines (JSON) and the stack's own notes, for failure messages. */
  logs: string[];
  /** Serves another build of a remote on a new port (as a second CDN folder would); returns its origin. */
  serveFolder: (root: string) => Promise<RunningServer>;
  /** Starts the API again on the same port and data, with `env` added to the start-up environment. */
  startApi: (env?: NodeJS.ProcessEnv) => Promise<void>;
  /** Outbox messages the API has not sent yet (`booking_outbox_depth` on its metrics port). */
  outboxDepth: () => Promise<number>;
};

let built: Promise<void> | undefined;

/** Builds missing or stale bundles once per Jest worker (the run is --runInBand: once per run). */
export function buildOnce(): Promise<void> {
  built ??= buildIfNeeded((line) => console.log(line));
  return built;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  await buildOnce();
  const [shell, booking, admin, api, metrics] = await freePorts(5);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-journey-'));
  // Never the developer's own .releases: each stack starts with none.
  const releasesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-releases-'));
  const logs: string[] = [];
  const withLogs = (error: unknown) => new Error(`${error instanceof Error ? error.message : error}\n${logs.slice(-30).join('\n')}`);
  let product: Product;
  try {
    product = await startProduct({
      ports: { shell, booking, admin, api },
      dataDir,
      releasesDir,
      build: false,
      apiEnv: {
        ...(options.measured ? { LOG_LEVEL: 'warn' } : { LOG_LEVEL: 'info', MAIL_POLL_MS: '300', METRICS_PORT: String(metrics) }),
        ...options.apiEnv,
      },
      extraOrigins: options.extraOrigins,
      // The API's lines as written (tests read them); the product's own summary of them would only repeat them.
      log: () => undefined,
      apiLines: (line) => logs.push(line),
      untilHealthy: true,
      // Tests look at what the shell rendered, not how fast: a busy CI machine may miss the 150 ms that bench/ measures.
      renderBudgetMs: options.measured ? undefined : 2000,
    });
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(releasesDir, { recursive: true, force: true });
    throw withLogs(error);
  }
  const extraServers: RunningServer[] = [];

  return {
    urls: product.urls,
    dataDir,
    releasesDir,
    logs,
    remotes: product.remotes,
    startRemote: product.startRemote,
    stopRemote: product.stopRemote,
    serveFolder: async (root) => {
      const server = await startStaticServer({ root, port: 0, spaFallback: true, cors: true });
      extraServers.push(server);
      return server;
    },
    killApi: product.killApi,
    outboxDepth: async () => {
      const text = await (await fetch(`http://127.0.0.1:${metrics}/metrics`)).text();
      const depth = /^booking_outbox_depth (\d+)$/m.exec(text)?.[1];
      if (depth === undefined) throw new Error('booking_outbox_depth missing from /metrics');
      return Number(depth);
    },
    startApi: (env) => product.restartApi(env).catch((error: unknown) => Promise.reject(withLogs(error))),
    stop: async () => {
      await Promise.all([product.stop(), ...extraServers.map((server) => server.close())]);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(releasesDir, { recursive: true, force: true });
    },
  };
}
