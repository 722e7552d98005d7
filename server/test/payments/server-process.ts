import { spawn, type ChildProcess } from 'node:child_process';
import http, { type IncomingHttpHeaders } from 'node:http';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { SANDBOX_SECRET, throwawayPostgres, waitFor } from './support';

const ROOT = path.resolve(__dirname, '../../..');

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export type Server = { child: ChildProcess; output: () => string; base: string };

/** The real server (server/src/main.ts) as a child process, answering /health. */
export async function startServer(env: Record<string, string>): Promise<Server> {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const base = `http://127.0.0.1:${env.PORT}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
      return fetch(`${base}/health`).then((r) => r.ok, () => false);
    },
    60_000,
    200,
  );
  return { child, output: () => out, base };
}

export const exited = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.signalCode ?? child.exitCode);
    child.once('exit', (code, signal) => resolve(signal ?? code));
  });

const processDirs: string[] = [];

/**
 * One more API process on a free port with a data folder of its own (as on its own machine), its public URL and the test
 * site; `env` adds what the test needs (DATABASE_URL, gateway, intervals). `removeProcessDirs` deletes the folders.
 */
export async function startApiProcess(prefix: string, env: Record<string, string>): Promise<Server> {
  const port = String(await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  processDirs.push(dataDir);
  return startServer({ PORT: port, DATA_DIR: dataDir, API_PUBLIC_URL: `http://127.0.0.1:${port}`, PUBLIC_SITE_URL: 'http://site.test', ...env });
}

export function removeProcessDirs(): void {
  for (const dir of processDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** SIGTERM to every child still running, and waits for each to exit. */
export async function stopAll(children: ChildProcess[]): Promise<void> {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGTERM');
      await exited(c);
    }
  }
}

/** The body of a response, or an error naming its status. */
export async function json(res: Response) {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** POSTs JSON from a chosen local address (127.0.0.2 and up act as other clients): status, headers and parsed body. */
export function postJsonFrom<Data = unknown>(
  localAddress: string,
  url: string,
  body: unknown,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: { success: boolean; data: Data; message: string; error?: string } }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** Two real API processes on one throwaway PostgreSQL (quiet hours off: a run does not depend on the time of day), and a handle on it. */
export async function twoApiProcesses(prefix: string): Promise<{ servers: Server[]; db: DatabaseHandle; stop: () => Promise<void> }> {
  const { url, drop } = await throwawayPostgres(prefix.replace(/-/g, '_'));
  const env = { DATABASE_URL: url, SANDBOX_SECRET, SEED_DEMO: 'false', RECONCILE_INTERVAL_MS: '600000', MAIL_POLL_MS: '600000', WAITLIST_QUIET_HOURS: 'off' };
  const servers = [await startApiProcess(prefix, env), await startApiProcess(prefix, env)];
  const db = await openDatabase({ driver: 'postgres', url, poolSize: 4 });
  return {
    servers,
    db,
    stop: async () => {
      await stopAll(servers.map((s) => s.child));
      await db.close();
      await drop();
      removeProcessDirs();
    },
  };
}
