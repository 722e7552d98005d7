// The shell's server run on its own, as deployed: a built folder, addresses from the environment, stopped by SIGTERM.
// Everything it reads is the test's own: its built folder, the remotes' hosts (empty folders served on free ports) and
// an environment without the developer's settings. Never the checkout's dist/ or .releases/, nor ports 3001/3002, where
// `npm start` may be serving a release (issue 35: the test then got a versioned address).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStaticServer, type RunningServer } from './static-files';

jest.setTimeout(60_000);

const main = path.join(__dirname, 'main.ts');
let dist: string;
let remoteFolder: string;
let bookingHost: RunningServer;
let adminHost: RunningServer;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-main-'));
  remoteFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-main-remote-'));
  // The remotes' hosts: a plain folder without releases, so their addresses are used as they are.
  const host = () => startStaticServer({ root: remoteFolder, port: 0, host: '127.0.0.1', spaFallback: false, cors: true });
  [bookingHost, adminHost] = await Promise.all([host(), host()]);
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html lang="en-MY"><head></head><body></body></html>');
  fs.writeFileSync(
    path.join(dist, 'remotes.json'),
    JSON.stringify({ booking: `${bookingHost.url}/remoteEntry.js`, admin: `${adminHost.url}/remoteEntry.js`, api: 'http://127.0.0.1:9' }),
  );
});

afterAll(async () => {
  await Promise.all([bookingHost?.close(), adminHost?.close()]);
  for (const folder of [dist, remoteFolder]) fs.rmSync(folder, { recursive: true, force: true });
});

/** The variables main.ts reads (README.md beside it): none of the developer's own reach the process under test. */
const shellVariables = /^(PORT|HOST|SHELL_DIST|REMOTES_FILE|BOOKING_REMOTE_URL|ADMIN_REMOTE_URL|API_URL|ERROR_REPORT_URL|BOOKING_DIST|ADMIN_DIST|SHELL_RELEASES_DIR|RELEASES_\w+|PRELOAD_HINTS|SERVER_RENDER|RENDER_\w+)$/;
const cleanEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([name]) => !shellVariables.test(name)));

/** Runs main.ts; resolves with its first own line ("shell: ...", after any warning of the render's start) and the process. */
function run(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; firstLine: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', main], { env: { ...cleanEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const own = output.split('\n').find((line, index, lines) => line.startsWith('shell:') && index < lines.length - 1);
      if (own) resolve({ child, firstLine: own, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => resolve({ child, firstLine: output.trim(), exited }));
  });
}

test('serves the folder on the port given, with the addresses of the environment over the folder\'s remotes.json, until SIGTERM', async () => {
  const { child, firstLine, exited } = await run({ SHELL_DIST: dist, PORT: '0', HOST: '127.0.0.1', API_URL: 'https://api.example.my', ADMIN_REMOTE_URL: 'https://admin.example.my' });
  try {
    const port = /on port (\d+)/.exec(firstLine)?.[1];
    expect(port).toBeDefined();
    const remotes = await (await fetch(`http://127.0.0.1:${port}/remotes.json`)).json();
    expect(remotes).toEqual({ booking: `${bookingHost.url}/remoteEntry.js`, admin: 'https://admin.example.my/remoteEntry.js', api: 'https://api.example.my' });
    const page = await fetch(`http://127.0.0.1:${port}/secured/dashboard`);
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self' https://api.example.my");
    expect(await page.text()).toContain('<link rel="preload" href="https://admin.example.my/remoteEntry.js" as="script">');
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
});

test('refuses to start without a built shell, or with a wrong address, saying why', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-main-empty-'));
  try {
    const missing = await run({ SHELL_DIST: empty, PORT: '0' });
    expect(await missing.exited).toBe(1);
    expect(missing.firstLine).toBe(`shell: no index.html in ${empty}: build the shell (npm run build -- shell) or set SHELL_DIST`);
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
  const wrong = await run({ SHELL_DIST: dist, PORT: '0', API_URL: 'api.example.my' });
  expect(await wrong.exited).toBe(1);
  expect(wrong.firstLine).toContain('"api" must be an http(s) address, got "api.example.my"');
});
