// The shell's server run on its own, as deployed: a built folder, addresses from the environment, stopped by SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

jest.setTimeout(60_000);

const main = path.join(__dirname, 'main.ts');
let dist: string;

beforeAll(() => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-main-'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html lang="en-MY"><head></head><body></body></html>');
  fs.writeFileSync(path.join(dist, 'remotes.json'), JSON.stringify({ booking: 'http://localhost:3001/remoteEntry.js', admin: 'http://localhost:3002/remoteEntry.js', api: 'http://localhost:4000' }));
});

afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

/** Runs main.ts; resolves with its first line (or its output when it ends first) and the process. */
function run(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; firstLine: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', main], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve({ child, firstLine: output.split('\n')[0], exited });
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
    expect(remotes).toEqual({ booking: 'http://localhost:3001/remoteEntry.js', admin: 'https://admin.example.my/remoteEntry.js', api: 'https://api.example.my' });
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
