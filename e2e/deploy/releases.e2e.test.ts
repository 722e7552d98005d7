// Versioned releases of booking-remote with the team's commands (scripts/release.ts, run as `npm run release` runs it):
// a release goes live on the next page load, rollback goes back without a rebuild, a canary splits fresh visitors and
// keeps each on one version, a release the shell cannot host is refused (and passed over if forced), and an open page
// keeps loading its chunks after further releases; the host never serves who released what.
// Builds are slow here: the remote is built once (dist/booking-remote, by the suite); each release is a copy of that
// build with one visible change ("Last updated:" reads another label, in the browser bundle and the server render
// entry), released with `--from`, the same command a CI pipeline runs on its artefact.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, eventually, nextWeekdays, startJourney } from '../support/journey';
import { openSlot } from '../support/parent';
import { distDir, repoRoot, type Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-release-variants-'));
const days = nextWeekdays(1);

// The shell's server reads a remote's pointer at every request here (in production: every 2 s).
const cacheBefore = process.env.RELEASES_CACHE_MS;
beforeAll(() => (process.env.RELEASES_CACHE_MS = '0'));
afterAll(() => {
  if (cacheBefore === undefined) delete process.env.RELEASES_CACHE_MS;
  else process.env.RELEASES_CACHE_MS = cacheBefore;
  fs.rmSync(work, { recursive: true, force: true });
});
productSuite({ staff: true }, (s) => ({ stack, browser, token } = s));

/** The built booking-remote with "Last updated:" reading `label`, and optionally another contract. */
function variant(label: string, contract?: (contract: Record<string, unknown>) => void): string {
  const folder = path.join(work, label.replace(/\W+/g, '-'));
  fs.cpSync(distDir('booking-remote'), folder, { recursive: true });
  let changed = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.js') && fs.readFileSync(file, 'utf8').includes('Last updated:')) {
        fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll('Last updated:', `${label}:`));
        // Its compressed copies would still say the old words: the host sends the file itself.
        fs.rmSync(`${file}.br`, { force: true });
        fs.rmSync(`${file}.gz`, { force: true });
        changed++;
      }
    }
  };
  walk(folder);
  // The timetable's chunk and the server render entry.
  expect(changed).toBeGreaterThanOrEqual(2);
  if (contract) {
    const file = path.join(folder, 'contract.json');
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    contract(parsed);
    fs.writeFileSync(file, JSON.stringify(parsed, null, 2));
  }
  return folder;
}

type Run = { code: number | null; out: string; err: string };

/** `npm run release|releases|rollback -- ...` as the package scripts run it, on this stack's releases folder. */
function command(name: 'release' | 'list' | 'rollback', ...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/release.ts'), name, ...args], {
      cwd: repoRoot,
      // The stack's own folders, whatever the developer's RELEASES_STATE_DIR says.
      env: { ...process.env, RELEASES_DIR: stack.releasesDir, RELEASES_STATE_DIR: path.join(stack.releasesDir, 'state'), RELEASED_BY: 'booking-team@example.my' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run: Run = { code: null, out: '', err: '' };
    child.stdout.on('data', (chunk) => (run.out += chunk));
    child.stderr.on('data', (chunk) => (run.err += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ ...run, code }));
  });
}

async function released(...args: string[]): Promise<string> {
  const run = await command('release', 'booking-remote', ...args);
  if (run.code !== 0) throw new Error(`release failed (${run.code}): ${run.err}${run.out}`);
  return /([0-9a-f]{10}-[0-9a-z]+)/.exec(run.out)![1];
}

const labelShown = async (page: Page): Promise<string> => {
  const line = page.getByText(/^Release \w+ updated:/).first();
  await line.waitFor();
  return (await line.innerText()).split(' updated:')[0];
};

const servedRemotes = async (cookie = ''): Promise<{ booking: string; versions?: { booking?: string }; refused?: unknown[] }> =>
  (await fetch(`${stack.urls.shell}/remotes.json`, { headers: { cookie } })).json() as Promise<{ booking: string }>;

let one: string;
let two: string;

test('a release is live on the next page load; rollback brings the previous one back without a rebuild', async () => {
  const journey = startJourney('release-and-rollback');
  const builtAt = fs.statSync(path.join(distDir('booking-remote'), 'mf-manifest.json')).mtimeMs;
  // With no releases the plain build is served, as on a fresh clone.
  expect((await servedRemotes()).booking).toBe(`${stack.urls.booking}/remoteEntry.js`);

  one = await released('--from', variant('Release one updated'));
  const page = await browser.context.newPage();
  await page.goto(`${stack.urls.shell}/`);
  expect(await labelShown(page)).toBe('Release one');

  two = await released('--from', variant('Release two updated'));
  await page.reload();
  expect(await labelShown(page)).toBe('Release two');
  expect((await servedRemotes()).versions).toEqual({ booking: two });
  // The HTML of / is drawn by the live release's own server render entry.
  const html = await eventually(async () => {
    const body = await (await fetch(`${stack.urls.shell}/`)).text();
    return body.includes('id="server-state"') && body;
  }, 'the server-rendered /');
  expect(html).toContain('Release two updated:');

  const rolledBack = await command('rollback', 'booking-remote');
  expect(rolledBack.out).toContain(`booking-remote: ${one} is live again (was ${two})`);
  await page.reload();
  expect(await labelShown(page)).toBe('Release one');
  await eventually(async () => (await (await fetch(`${stack.urls.shell}/`)).text()).includes('Release one updated:'), 'the rolled-back server render');

  // Nothing was built: the remote's build is untouched; the pointer's history says what happened and who did it.
  expect(fs.statSync(path.join(distDir('booking-remote'), 'mf-manifest.json')).mtimeMs).toBe(builtAt);
  const listing = (await command('list', 'booking-remote')).out;
  expect(listing).toContain(`booking-remote: live ${one}`);
  expect(listing).toMatch(new RegExp(`release +${one} .*by booking-team@example\\.my +→ live ${one}`));
  expect(listing).toMatch(new RegExp(`release +${two} .*→ live ${two}`));
  expect(listing).toMatch(new RegExp(`rollback +${one} .*→ live ${one}`));
  // Who released what and the commands' lock are kept beside the releases, never on the host (issue 35).
  for (const file of ['releases.json', 'releases.lock', 'state/booking-remote/releases.json', '']) {
    expect([file, (await fetch(`${stack.urls.booking}/releases/${file}`)).status]).toEqual([file, 404]);
  }
  expect(await (await fetch(`${stack.urls.booking}/releases/live.json`)).text()).not.toContain('booking-team@example.my');
  expect(fs.readFileSync(path.join(stack.releasesDir, 'state', 'booking-remote', 'releases.json'), 'utf8')).toContain('booking-team@example.my');
  await journey.finish(page);
});

test('a 50 % canary sends about half of 40 fresh visitors to the new version, each staying on theirs across reloads; promote and rollback', async () => {
  const canary = await command('release', 'booking-remote', '--from', variant('Release two updated'), '--canary', '50');
  expect(canary.out).toContain(`booking-remote ${two} is a canary for 50 % of visitors; ${one} stays live for the rest`);

  const seen: Record<string, number> = {};
  for (let visitor = 0; visitor < 40; visitor++) {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await page.goto(`${stack.urls.shell}/`);
    const first = await labelShown(page);
    await page.reload();
    expect(await labelShown(page)).toBe(first);
    await page.close();
    seen[first] = (seen[first] ?? 0) + 1;
  }
  // Binomial(40, 0.5): outside 8..32 about once in 10^5 runs.
  expect(seen['Release one'] + seen['Release two']).toBe(40);
  expect(seen['Release two']).toBeGreaterThanOrEqual(8);
  expect(seen['Release two']).toBeLessThanOrEqual(32);

  // Rollback ends the canary: everyone is on the live release.
  expect((await command('rollback', 'booking-remote')).out).toContain(`canary ${two} ended; everyone gets ${one}`);
  for (let visitor = 0; visitor < 3; visitor++) expect((await servedRemotes(`visitor=v${visitor}`)).versions).toEqual({ booking: one });

  // A canary again, promoted: everyone gets it.
  await released('--from', variant('Release two updated'), '--canary', '10');
  expect((await command('release', 'booking-remote', '--promote')).out).toContain(`booking-remote ${two} is live for everyone`);
  for (let visitor = 0; visitor < 3; visitor++) expect((await servedRemotes(`visitor=v${visitor}`)).versions).toEqual({ booking: two });
});

test('signed-in staff open any released version with a query parameter; nobody else can choose one', async () => {
  const asked = `${stack.urls.shell}/?booking-release=${one}`;
  // A parent (no session) and a forged session get the live release and no pin.
  for (const cookie of ['', 'token=forged']) {
    const response = await fetch(asked, { headers: { cookie } });
    expect(response.headers.get('set-cookie') ?? '').not.toContain('release-pin');
    expect((await servedRemotes(`${cookie}; release-pin=booking:${one}`)).versions).toEqual({ booking: two });
  }
  const response = await fetch(asked, { headers: { cookie: `token=${token}` } });
  const pin = /release-pin=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
  expect(pin).toBe(`release-pin=${encodeURIComponent(`booking:${one}`)}`);
  expect((await servedRemotes(`token=${token}; ${pin}`)).versions).toEqual({ booking: one });
});

/** A deployment's error collector: keeps the JSON bodies posted to it. */
async function startErrorCollector(): Promise<{ url: string; reports: Array<Record<string, unknown>>; close: () => Promise<void> }> {
  const reports: Array<Record<string, unknown>> = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.method === 'POST') reports.push(JSON.parse(body) as Record<string, unknown>);
      response.writeHead(204, { 'Access-Control-Allow-Origin': '*' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/browser-errors`, reports, close: () => new Promise((done) => server.close(() => done())) };
}

test('a remote built against an incompatible shell contract is refused; forced live, the shell loads the previous version and reports it', async () => {
  const journey = startJourney('release-incompatible');
  const incompatible = variant('Release three updated', (contract) => (contract.shellContract = '^2.0.0'));
  const refused = await command('release', 'booking-remote', '--from', incompatible);
  expect(refused.code).toBe(1);
  expect(refused.err).toContain('Refused: booking-remote would break what is live:\n  - booking-remote needs shell contract ^2.0.0; the shell provides 1.0.0');
  expect((await servedRemotes()).versions).toEqual({ booking: two });

  const collector = await startErrorCollector();
  stack.remotes.errorReportUrl = collector.url;
  try {
    const three = await released('--from', incompatible, '--force');
    const page = await browser.context.newPage();
    await page.goto(`${stack.urls.shell}/`);
    expect(await labelShown(page)).toBe('Release two');
    expect(await servedRemotes()).toMatchObject({
      versions: { booking: two },
      refused: [{ remote: 'booking', version: three, problems: ['booking-remote needs shell contract ^2.0.0; the shell provides 1.0.0'] }],
    });
    const report = await eventually(async () => collector.reports.find((r) => r.buildId === three), 'the report of the refused release');
    expect(report).toMatchObject({ remote: 'booking', message: expect.stringContaining('needs shell contract ^2.0.0') });
    await journey.finish(page);
  } finally {
    delete stack.remotes.errorReportUrl;
    await collector.close();
    await command('rollback', 'booking-remote', two);
  }
});

test('a page opened before two further releases keeps working: its release stays on the host', async () => {
  await addSlot(stack.urls.api, token, days[0], '10:00');
  const page = await browser.context.newPage();
  const failed: string[] = [];
  page.on('response', (response) => response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`));
  page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
  await page.goto(`${stack.urls.shell}/`);
  expect(await labelShown(page)).toBe('Release two');

  await released('--from', variant('Release four updated'));
  await released('--from', variant('Release five updated'));
  expect((await servedRemotes()).versions?.booking).not.toBe(two);

  // The open page still runs release two: whatever the booking dialog loads comes from its folder, and answers.
  const dialog = await openSlot(page, days[0], '10:00');
  await dialog.getByLabel('Visitor Name').waitFor();
  expect(await labelShown(page)).toBe('Release two');
  expect(failed).toEqual([]);
  expect(fs.existsSync(path.join(stack.releasesDir, 'booking-remote', two, 'remoteEntry.js'))).toBe(true);
  // The next page load gets the newest.
  await page.reload();
  expect(await labelShown(page)).toBe('Release five');
});
