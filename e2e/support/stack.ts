// The product as the journeys and fault tests need it: started by scripts/product.ts's startProduct (the one start-up
// of `npm start`) on free ports and a throw-away data folder, with the API's every log line kept, a remotes.json a test
// may point elsewhere (a redeployed remote) and a handle on the API process (SIGKILL, restart with other settings).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfNeeded, startProduct, type Product } from '../../scripts/product';
import { startStaticServer, type StaticServer } from '../../scripts/static-server';
import { freePorts } from './product';

export type { RemoteKey } from '../../scripts/product';

export type StackOptions = {
  /** Environment of the API process (SMTP_URL, SANDBOX_CALLBACK_DELAY_MS, DATABASE_URL...). */
  apiEnv?: NodeJS.ProcessEnv;
};

export type Stack = Pick<Product, 'urls' | 'remotes' | 'stopRemote' | 'startRemote' | 'killApi' | 'stop'> & {
  dataDir: string;
  /** The API's log lines (JSON) and the stack's own notes, for failure messages. */
  logs: string[];
  /** Serves another build of a remote on a new port (as a second CDN folder would); returns its origin. */
  serveFolder: (root: string) => Promise<StaticServer>;
  /** Starts the API again on the same port and data, with `env` added to the start-up environment. */
  startApi: (env?: NodeJS.ProcessEnv) => Promise<void>;
};

let built: Promise<void> | undefined;

/** Builds missing or stale bundles once per Jest worker (the run is --runInBand: once per run). */
export function buildOnce(): Promise<void> {
  built ??= buildIfNeeded((line) => console.log(line));
  return built;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  await buildOnce();
  const [shell, booking, admin, api] = await freePorts(4);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-journey-'));
  const logs: string[] = [];
  const withLogs = (error: unknown) => new Error(`${error instanceof Error ? error.message : error}\n${logs.slice(-30).join('\n')}`);
  let product: Product;
  try {
    product = await startProduct({
      ports: { shell, booking, admin, api },
      dataDir,
      build: false,
      apiEnv: { LOG_LEVEL: 'info', MAIL_POLL_MS: '300', ...options.apiEnv },
      // The API's lines as written (tests read them); the product's own summary of them would only repeat them.
      log: () => undefined,
      apiLines: (line) => logs.push(line),
      untilHealthy: true,
    });
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw withLogs(error);
  }
  const extraServers: StaticServer[] = [];

  return {
    urls: product.urls,
    dataDir,
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
    startApi: (env) => product.restartApi(env).catch((error: unknown) => Promise.reject(withLogs(error))),
    stop: async () => {
      await Promise.all([product.stop(), ...extraServers.map((server) => server.close())]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
