// `npm run stack:scale`: the deployment of deploy/ on one machine — nginx (load balancer and edge cache) in front of
// 3 API processes and 2 shell servers on one PostgreSQL, the remotes' built folders served by nginx as their CDN would.
// startScaleStack is also the e2e suite's (e2e/deploy/scale.e2e.test.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { distDir, releasesDirOf, releasesRoot, repoRoot } from './bundles';
import { buildIfNeeded, stopChild } from './product';
import { remoteEntryUrl, type RemotesJson } from '../shell/server/remotes';
import { startShellServer } from '../shell/server/shell-server';

export type ScaleOptions = {
  /** nginx's four public ports: shell, api, booking, admin (default from STACK_PORT, 8080..8083). */
  ports?: { shell: number; api: number; booking: number; admin: number };
  apiCount?: number;
  shellCount?: number;
  databaseUrl: string;
  apiEnv?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Every line an API process writes, with its index. */
  apiLines?: (index: number, line: string) => void;
  renderBudgetMs?: number;
  build?: boolean;
};

export type ScaleStack = {
  urls: { shell: string; api: string; booking: string; admin: string };
  /** The API processes' own addresses (behind nginx). */
  apiUrls: string[];
  shellUrls: string[];
  /** nginx's folder: its access.log (one line per request, `upstream=` empty when the cache answered). */
  prefix: string;
  /** Ends API process `index` with `signal` and waits until it is gone (SIGTERM: it finishes what it has). */
  stopApi: (index: number, signal?: NodeJS.Signals) => Promise<void>;
  /** Starts API process `index` again on its port and waits until /health answers 200. */
  startApi: (index: number) => Promise<void>;
  /**
   * A rolling restart of API process `index` without a lost request: nginx is told to send it nothing new (reloaded
   * with it `down`, the old workers finishing what they sent), then SIGTERM (it finishes what it has), start, and back in.
   */
  rollApi: (index: number) => Promise<void>;
  /** Ends shell server `index` with `signal` (SIGKILL: a crash) and waits until it is gone. */
  stopShell: (index: number, signal?: NodeJS.Signals) => Promise<void>;
  /** Starts shell server `index` again on its port and waits until it answers. */
  startShell: (index: number) => Promise<void>;
  stop: () => Promise<void>;
};

export const NGINX_MISSING =
  'nginx is not installed: on Debian or Ubuntu, `apt-get install nginx` (it need not run as a service).';

/** The nginx on PATH, or undefined. */
export function nginxBinary(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).concat(['/usr/sbin', '/usr/local/sbin'])) {
    const file = path.join(dir, 'nginx');
    if (dir && fs.existsSync(file)) return file;
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) =>
    server.once('error', reject).listen(0, '127.0.0.1', () => resolve()),
  );
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether nothing listens on 127.0.0.1:`port`. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** deploy/nginx.conf.template with its fields filled in. */
export function nginxConfig(fields: {
  prefix: string;
  ports: { shell: number; api: number; booking: number; admin: number };
  apiPorts: number[];
  shellPorts: number[];
  listenHost?: string;
  /** API ports nginx sends nothing new to (`down`): a process being drained before it stops. */
  downApiPorts?: number[];
}): string {
  const template = fs.readFileSync(path.join(repoRoot, 'deploy/nginx.conf.template'), 'utf8');
  const values: Record<string, string> = {
    PREFIX: fields.prefix,
    MIME_TYPES: fs.existsSync('/etc/nginx/mime.types')
      ? '/etc/nginx/mime.types'
      : path.join(fields.prefix, 'mime.types'),
    LISTEN_HOST: fields.listenHost ?? '127.0.0.1',
    SHELL_PORT: String(fields.ports.shell),
    API_PORT: String(fields.ports.api),
    BOOKING_PORT: String(fields.ports.booking),
    ADMIN_PORT: String(fields.ports.admin),
    BOOKING_ROOT: distDir('booking-remote'),
    ADMIN_ROOT: distDir('admin-remote'),
    // A process that fails 3 times in 5 s is left alone for 5 s; its requests go to the others meanwhile.
    API_SERVERS: fields.apiPorts
      .map((port) => `    server 127.0.0.1:${port} max_fails=3 fail_timeout=5s${fields.downApiPorts?.includes(port) ? ' down' : ''};`)
      .join('\n'),
    SHELL_SERVERS: fields.shellPorts
      .map((port) => `    server 127.0.0.1:${port} max_fails=3 fail_timeout=5s;`)
      .join('\n'),
  };
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`deploy/nginx.conf.template: unknown field {{${name}}}`);
    return values[name];
  });
}

/** Creates the database of `url` when it does not exist (its server's `postgres` database is asked). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

async function untilOk(url: string, isAlive: () => boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`the process behind ${url} exited during start-up`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

export async function startScaleStack(options: ScaleOptions): Promise<ScaleStack> {
  const log = options.log ?? ((line: string) => console.log(line));
  const nginx = nginxBinary();
  if (!nginx) throw new Error(NGINX_MISSING);
  if (options.build !== false) await buildIfNeeded(log);
  const base = Number(process.env.STACK_PORT) || 8080;
  const ports = options.ports ?? { shell: base, api: base + 1, booking: base + 2, admin: base + 3 };
  const host = (port: number) => `http://127.0.0.1:${port}`;
  const urls = {
    shell: host(ports.shell),
    api: host(ports.api),
    booking: host(ports.booking),
    admin: host(ports.admin),
  };
  const apiPorts: number[] = [];
  for (let i = 0; i < (options.apiCount ?? 3); i++) apiPorts.push(await freePort());
  const shellPorts: number[] = [];
  for (let i = 0; i < (options.shellCount ?? 2); i++) shellPorts.push(await freePort());

  // The browser sees only nginx's addresses: remotes.json names them, the API accepts the shell's origin.
  const remotes: RemotesJson = {
    booking: remoteEntryUrl(urls.booking),
    admin: remoteEntryUrl(urls.admin),
    api: urls.api,
  };
  const origins = [ports.shell, ports.booking, ports.admin].flatMap((port) => [
    `http://127.0.0.1:${port}`,
    `http://localhost:${port}`,
  ]);
  const apiEnv = (port: number): NodeJS.ProcessEnv => ({
    ...process.env,
    ...options.apiEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    CORS_ORIGINS: origins.join(','),
    // nginx is the one proxy: the API takes the address nginx appended to X-Forwarded-For.
    TRUST_PROXY: '127.0.0.1',
    PUBLIC_SITE_URL: urls.shell,
    API_PUBLIC_URL: urls.api,
  });

  const apis: (ChildProcess | undefined)[] = apiPorts.map(() => undefined);
  const startApi = async (index: number) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/src/main.ts')], {
      cwd: repoRoot,
      env: apiEnv(apiPorts[index]),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    apis[index] = child;
    const killOnExit = () => child.kill('SIGTERM');
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) options.apiLines?.(index, line);
      });
    }
    await untilOk(
      `${host(apiPorts[index])}/health`,
      () => child.exitCode === null && child.signalCode === null,
    );
  };

  // Each shell server is a process of its own (this file, `shell` mode), as in production: it can crash alone.
  const shells: (ChildProcess | undefined)[] = shellPorts.map(() => undefined);
  const renderBudgetMs =
    options.renderBudgetMs ?? (process.env.RENDER_BUDGET_MS ? Number(process.env.RENDER_BUDGET_MS) : undefined);
  const startShell = async (index: number) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, 'shell'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(shellPorts[index]),
        STACK_REMOTES: JSON.stringify(remotes),
        ...(renderBudgetMs !== undefined && { RENDER_BUDGET_MS: String(renderBudgetMs) }),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    shells[index] = child;
    const killOnExit = () => child.kill('SIGTERM');
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
    child.stderr?.on('data', (chunk: Buffer) => log(`[shell ${index + 1}] ${chunk.toString().trim()}`));
    await untilOk(`${host(shellPorts[index])}/remotes.json`, () => child.exitCode === null && child.signalCode === null);
  };
  const stopProcess = async (child: ChildProcess | undefined, signal: NodeJS.Signals) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  };

  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'stack-scale-nginx-'));
  let nginxProcess: ChildProcess | undefined;
  const stop = async () => {
    if (nginxProcess) await stopChild(nginxProcess, 5_000);
    await Promise.all([...shells, ...apis].map((child) => child && stopChild(child)));
  };

  try {
    // The first API migrates the database alone; the others start on a migrated one.
    await startApi(0);
    await Promise.all(apiPorts.slice(1).map((_, i) => startApi(i + 1)));
    // Started as root, nginx's workers run as `nobody`: they must be able to write its cache and temporary files.
    fs.chmodSync(prefix, 0o755);
    for (const dir of ['cache', 'proxy', 'client_body', 'fastcgi', 'uwsgi', 'scgi'])
      fs.mkdirSync(path.join(prefix, dir), { mode: 0o777 });
    for (const dir of ['cache', 'proxy', 'client_body', 'fastcgi', 'uwsgi', 'scgi'])
      fs.chmodSync(path.join(prefix, dir), 0o777);
    fs.writeFileSync(
      path.join(prefix, 'remote-files.conf'),
      fs.readFileSync(path.join(repoRoot, 'deploy/remote-files.conf')),
    );
    fs.writeFileSync(path.join(prefix, 'nginx.conf'), nginxConfig({ prefix, ports, apiPorts, shellPorts }));
    // Another server on one of nginx's ports would answer the checks below in its place.
    for (const port of Object.values(ports)) {
      if (!(await portFree(port)))
        throw new Error(`port ${port} is in use (STACK_PORT picks nginx's four ports)`);
    }
    const test = spawnSync(
      nginx,
      ['-t', '-q', '-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'],
      { encoding: 'utf8' },
    );
    if (test.status !== 0) throw new Error(`nginx -t: ${test.stderr}`);
    nginxProcess = spawn(nginx, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    nginxProcess.stderr?.on('data', (chunk: Buffer) => log(`[nginx] ${chunk.toString().trim()}`));
    const running = nginxProcess;
    process.once('exit', () => running.kill('SIGTERM'));
    await untilOk(`${urls.api}/health`, () => running.exitCode === null);
    // The shells after nginx: each loads the booking remote's render entry (at nginx's address) as it starts.
    await Promise.all(shellPorts.map((_, index) => startShell(index)));
    await untilOk(`${urls.shell}/remotes.json`, () => running.exitCode === null);
  } catch (error) {
    await stop();
    throw error;
  }

  /**
   * Rewrites nginx.conf with these API ports `down` and reloads nginx: its new workers send them nothing; the old ones
   * take no new request and finish those under way. Waited for until they are gone, or for 3 s at most: a long poll
   * the shells keep at the API (GET /public/list/changes, up to 40 s) keeps an old worker; the API ends it on SIGTERM.
   */
  const reloadNginx = async (downApiPorts: number[]) => {
    const master = nginxProcess!;
    fs.writeFileSync(path.join(prefix, 'nginx.conf'), nginxConfig({ prefix, ports, apiPorts, shellPorts, downApiPorts }));
    master.kill('SIGHUP');
    const end = Date.now() + 3_000;
    await new Promise((resolve) => setTimeout(resolve, 200));
    while (Date.now() < end) {
      const workers = spawnSync('ps', ['-o', 'args=', '--ppid', String(master.pid)], { encoding: 'utf8' }).stdout;
      if (!workers.includes('shutting down')) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const stopApiProcess = (index: number, signal: NodeJS.Signals = 'SIGTERM') => stopProcess(apis[index], signal);

  return {
    urls,
    apiUrls: apiPorts.map(host),
    shellUrls: shellPorts.map(host),
    prefix,
    stopApi: stopApiProcess,
    startApi,
    rollApi: async (index) => {
      await reloadNginx([apiPorts[index]]);
      await stopApiProcess(index, 'SIGTERM');
      await startApi(index);
      await reloadNginx([]);
    },
    stopShell: (index, signal = 'SIGTERM') => stopProcess(shells[index], signal),
    startShell,
    stop,
  };
}

/** `shell` mode: one shell server of the stack, its settings from startScaleStack's environment. */
async function runShell() {
  const remotes = JSON.parse(process.env.STACK_REMOTES ?? '{}') as RemotesJson;
  const server = await startShellServer({
    root: distDir('shell'),
    releasesDir: releasesDirOf('shell', releasesRoot()),
    port: Number(process.env.PORT),
    host: '127.0.0.1',
    remotes: () => remotes,
    // nginx serves the remotes' plain builds (no release pointers there).
    followReleases: false,
    remoteFolders: { booking: distDir('booking-remote'), admin: distDir('admin-remote') },
    renderBudgetMs: process.env.RENDER_BUDGET_MS ? Number(process.env.RENDER_BUDGET_MS) : undefined,
  });
  const close = () => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}

async function main() {
  if (!nginxBinary()) {
    console.error(NGINX_MISSING);
    process.exit(1);
  }
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/booking_stack';
  await ensureDatabase(databaseUrl);
  const running: { stack?: ScaleStack } = {};
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping nginx, the shell servers and the API processes...`);
    await running.stack?.stop();
    console.log('Stopped.');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => void shutdown(signal));
  const stack = await startScaleStack({
    databaseUrl,
    apiCount: Number(process.env.API_COUNT) || 3,
    shellCount: Number(process.env.SHELL_COUNT) || 2,
    apiLines: (index, line) => {
      if (/"level":[56]0|listening/.test(line)) console.log(`[api ${index + 1}] ${line}`);
    },
  });
  running.stack = stack;
  if (stopping) return void (await stack.stop());
  const { urls } = stack;
  console.log(
    [
      '',
      `  Booking page (nginx → ${stack.shellUrls.length} shell servers)   ${urls.shell}/`,
      `  API (nginx → ${stack.apiUrls.length} API processes)          ${urls.api}/health`,
      `  booking-remote (nginx, built folder)     ${urls.booking}/remoteEntry.js`,
      `  admin-remote (nginx, built folder)       ${urls.admin}/remoteEntry.js`,
      `  API processes   ${stack.apiUrls.join('  ')}`,
      `  Shell servers   ${stack.shellUrls.join('  ')}`,
      `  Database        ${databaseUrl.replace(/\/\/[^@]*@/, '//…@')}`,
      `  nginx folder    ${stack.prefix}   (nginx.conf, access.log)`,
      '',
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

if (require.main === module) {
  (process.argv[2] === 'shell' ? runShell() : main()).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
