// The shell's server choosing releases: a remote's pointer served by its host (as `npm start` and a CDN serve it), the
// shell's own releases folder, a staff session checked with a stand-in API's current-user route.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Contract } from './contract';
import { addRelease, emptyPointer, POINTER_FILE, published, type Pointer, type ReleaseRecord } from './releases';
import type { RemotesJson } from './remotes';
import { startShellServer } from './shell-server';
import { startStaticServer, type RunningServer } from './static-files';

const shellContract: Contract = { bundle: 'shell', shellContract: '1.0.0', shared: { react: '19.3.1' } };
const needs = (range: string): Contract => ({ bundle: 'booking-remote', shellContract: range, shared: { react: '^19.0.0' } });
const record = (version: string, contract = needs('^1.0.0')): ReleaseRecord => ({
  version,
  commit: 'abc1234',
  at: '2026-01-01T00:00:00Z',
  by: 'ana@example.my',
  contract,
  hints: { routes: [`routes.${version}.js`], words: { ms: `home-ms.${version}.js` } },
});

let folders: string[] = [];
const folder = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  folders.push(dir);
  return dir;
};
let servers: RunningServer[] = [];
let shell: RunningServer;
let bookingReleases: string;
let remotes: RemotesJson;

/** As the release command publishes it: the pointer without anyone's name. */
const writePointer = (dir: string, pointer: Pointer | object) => fs.writeFileSync(path.join(dir, POINTER_FILE), JSON.stringify('history' in pointer ? published(pointer as Pointer) : pointer));
const get = async (url: string, cookie = '') => {
  const response = await fetch(url, { headers: { cookie, 'accept-encoding': 'identity' } });
  return { response, text: await response.text() };
};
const remotesJson = async (cookie = '') => JSON.parse((await get(`${shell.url}/remotes.json`, cookie)).text) as RemotesJson;

/** The shell at `root` (a plain build) and booking's host with its releases folder; a stand-in API for `GET /user`. */
let logged: string[] = [];

async function start(shellReleases?: string) {
  const root = folder('shell-dist');
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><html lang="en-MY"><head></head><body>plain shell</body></html>');
  fs.writeFileSync(path.join(root, 'contract.json'), JSON.stringify(shellContract));
  bookingReleases = folder('booking-releases');
  const booking = await startStaticServer({ root: folder('booking-dist'), port: 0, host: '127.0.0.1', spaFallback: true, cors: true, releaseMounts: { '/releases/': bookingReleases } });
  const api = http.createServer((request, response) => response.writeHead(request.headers.authorization === 'Bearer staff-token' ? 200 : 401).end('{}'));
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  servers.push(booking, { url: apiUrl, port: 0, close: () => new Promise((done) => api.close(() => done())) });
  remotes = { booking: `${booking.url}/remoteEntry.js`, admin: 'http://127.0.0.1:9/remoteEntry.js', api: apiUrl };
  logged = [];
  shell = await startShellServer({ root, releasesDir: shellReleases, port: 0, host: '127.0.0.1', remotes: () => remotes, serverRender: false, releasesCacheMs: 0, log: (line) => logged.push(line) });
  servers.push(shell);
  return booking.url;
}

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  folders = [];
});

test('without releases the remote is loaded from its address as it is (a fresh clone)', async () => {
  await start();
  expect(await remotesJson()).toEqual(remotes);
});

test('the live release: its entry in remotes.json, its version, and its chunks in the page hints', async () => {
  const booking = await start();
  writePointer(bookingReleases, addRelease(addRelease(emptyPointer('booking-remote'), record('v1')).pointer, record('v2')).pointer);
  expect(await remotesJson()).toEqual({ ...remotes, booking: `${booking}/releases/v2/remoteEntry.js`, versions: { booking: 'v2' } });
  const { response, text } = await get(`${shell.url}/`, 'lang=ms');
  expect(response.headers.get('set-cookie')).toBeNull();
  expect(text).toContain(`<link rel="preload" href="${booking}/releases/v2/remoteEntry.js" as="script">`);
  expect(text).toContain(`<link rel="preload" href="${booking}/releases/v2/routes.v2.js" as="script">`);
  expect(text).toContain(`<link rel="preload" href="${booking}/releases/v2/home-ms.v2.js" as="script">`);
});

test('a canary: a visitor cookie is set, each visitor keeps one version, about the share asked get the canary', async () => {
  await start();
  const live = addRelease(emptyPointer('booking-remote'), record('v1')).pointer;
  writePointer(bookingReleases, addRelease(live, record('v2'), { canaryPercent: 30 }).pointer);
  const first = await get(`${shell.url}/remotes.json`);
  expect(first.response.headers.get('set-cookie')).toMatch(/^visitor=[\w-]+; Max-Age=31536000; Path=\/; SameSite=Lax; HttpOnly$/);
  expect(first.response.headers.get('cache-control')).toBe('private, no-cache');

  const versions: string[] = [];
  for (let i = 0; i < 60; i++) {
    const version = (await remotesJson(`visitor=id-${i}`)).versions!.booking!;
    expect((await remotesJson(`visitor=id-${i}`)).versions!.booking).toBe(version);
    versions.push(version);
  }
  const onCanary = versions.filter((v) => v === 'v2').length;
  // Binomial(60, 0.3): 18 on average; outside 5..35 about once in 10^5 runs.
  expect(onCanary).toBeGreaterThanOrEqual(5);
  expect(onCanary).toBeLessThanOrEqual(35);
}, 30_000);

test('a release the shell cannot host is passed over for the last compatible live one, and listed as refused', async () => {
  const booking = await start();
  let pointer = addRelease(emptyPointer('booking-remote'), record('v1')).pointer;
  pointer = addRelease(pointer, record('v2', needs('^2.0.0'))).pointer;
  writePointer(bookingReleases, pointer);
  expect(await remotesJson()).toEqual({
    ...remotes,
    booking: `${booking}/releases/v1/remoteEntry.js`,
    versions: { booking: 'v1' },
    refused: [{ remote: 'booking', version: 'v2', problems: ['booking-remote needs shell contract ^2.0.0; the shell provides 1.0.0'] }],
  });
  // None compatible: an entry that does not exist (the remote's error panel).
  writePointer(bookingReleases, addRelease(emptyPointer('booking-remote'), record('v3', needs('^2.0.0'))).pointer);
  expect((await remotesJson()).booking).toBe(`${booking}/releases/v3-refused/remoteEntry.js`);
});

test('only a session the API accepts may pick a release; the choice is kept in a session cookie', async () => {
  const booking = await start();
  writePointer(bookingReleases, addRelease(addRelease(emptyPointer('booking-remote'), record('v1')).pointer, record('v2')).pointer);
  const parent = await get(`${shell.url}/?booking-release=v1`, 'token=not-staff');
  expect(parent.response.headers.get('set-cookie')).toBeNull();
  expect((await remotesJson('token=not-staff; release-pin=booking%3Av1')).versions).toEqual({ booking: 'v2' });
  expect((await remotesJson('release-pin=booking%3Av1')).versions).toEqual({ booking: 'v2' });

  const staff = await get(`${shell.url}/?booking-release=v1`, 'token=staff-token');
  expect(staff.response.headers.get('set-cookie')).toBe('release-pin=booking%3Av1; Path=/; SameSite=Lax; HttpOnly');
  expect(staff.text).toContain(`${booking}/releases/v1/remoteEntry.js`);
  expect(await remotesJson('token=staff-token; release-pin=booking%3Av1')).toMatchObject({ booking: `${booking}/releases/v1/remoteEntry.js` });
  // An unknown version is ignored; `live` ends the pin.
  expect((await remotesJson('token=staff-token; release-pin=booking%3Av9')).versions).toEqual({ booking: 'v2' });
  const ended = await get(`${shell.url}/?booking-release=live`, 'token=staff-token; release-pin=booking%3Av1');
  expect(ended.response.headers.get('set-cookie')).toContain('release-pin=; Max-Age=0');
});

test("the shell's live release is served, and an older retained release's files still answer", async () => {
  const releases = folder('shell-releases');
  for (const version of ['s1', 's2']) {
    fs.mkdirSync(path.join(releases, version));
    fs.writeFileSync(path.join(releases, version, 'index.html'), `<!doctype html><html lang="en-MY"><head></head><body>shell ${version}</body></html>`);
    fs.writeFileSync(path.join(releases, version, `main.${version}0000000.js`), `/* ${version} */`);
  }
  await start(releases);
  expect((await get(`${shell.url}/`)).text).toContain('plain shell');
  const shellRecord = (version: string): ReleaseRecord => ({ version, commit: 'abc1234', at: 'x', by: 'ana@example.my' });
  writePointer(releases, addRelease(addRelease(emptyPointer('shell'), shellRecord('s1')).pointer, shellRecord('s2')).pointer);
  expect((await get(`${shell.url}/login`)).text).toContain('shell s2');
  expect((await get(`${shell.url}/main.s10000000.js`)).text).toBe('/* s1 */');
  expect((await get(`${shell.url}/main.s30000000.js`)).response.status).toBe(404);
});

test('a remote\'s pointer naming anything but versions is refused: the last good one stays, and it is logged', async () => {
  const booking = await start();
  const good = addRelease(addRelease(emptyPointer('booking-remote'), record('v1')).pointer, record('v2')).pointer;
  writePointer(bookingReleases, good);
  expect((await remotesJson()).booking).toBe(`${booking}/releases/v2/remoteEntry.js`);
  const climbing = { ...published(good), live: '../../../shell', releases: [...published(good).releases, { ...record('../../../shell'), by: undefined }] };
  const attacks: object[] = [
    climbing,
    { ...published(good), canary: { version: '../admin', percent: 50 } },
    { ...published(good), live: 'v2?x=1' },
    { ...published(good), releases: [{ ...published(good).releases[1], hints: { routes: ['"><script>alert(1)</script>'], words: {} } }] },
    { ...published(good), releases: [{ ...published(good).releases[1], hints: { routes: ['../../evil.js'], words: {} } }] },
  ];
  for (const pointer of attacks) {
    writePointer(bookingReleases, pointer);
    const served = await remotesJson();
    expect(served).toEqual({ ...remotes, booking: `${booking}/releases/v2/remoteEntry.js`, versions: { booking: 'v2' } });
    expect((await get(`${shell.url}/`)).text).not.toMatch(/\.\.\/|<script>alert/);
  }
  // Said once a minute per host, naming the refused value.
  expect(logged.filter((line) => line.includes('refused'))).toEqual([
    `releases: ${booking}/releases: live.json names "../../../shell" as the live version, not a version name: refused; keeping the last good pointer`,
  ]);
});

test('a first pointer naming a path is refused: the remote\'s own address is used', async () => {
  await start();
  writePointer(bookingReleases, { ...published(addRelease(emptyPointer('booking-remote'), record('v1')).pointer), live: '../../../shell' });
  expect(await remotesJson()).toEqual(remotes);
  expect(logged.join('\n')).toContain('names "../../../shell" as the live version, not a version name: refused; the remote\'s own address is used');
});

test("the shell's own pointer naming a folder outside its releases is refused: the last good release stays served, and it is logged", async () => {
  const releases = folder('shell-releases');
  fs.mkdirSync(path.join(releases, 's1'));
  fs.writeFileSync(path.join(releases, 's1', 'index.html'), '<!doctype html><html lang="en-MY"><head></head><body>shell s1</body></html>');
  // A folder beside the releases with a page of its own: where `../outside` would lead.
  const outside = path.join(path.dirname(releases), `${path.basename(releases)}-outside`);
  fs.mkdirSync(outside);
  folders.push(outside);
  fs.writeFileSync(path.join(outside, 'index.html'), '<html><body>not a release</body></html>');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  await start(releases);
  const good = addRelease(emptyPointer('shell'), { version: 's1', commit: 'abc1234', at: 'x', by: 'ana@example.my' }).pointer;
  writePointer(releases, good);
  expect((await get(`${shell.url}/login`)).text).toContain('shell s1');
  writePointer(releases, { ...published(good), live: `../${path.basename(outside)}` });
  // A new pointer is read when its file changes.
  const later = new Date(Date.now() + 2000);
  fs.utimesSync(path.join(releases, POINTER_FILE), later, later);
  expect((await get(`${shell.url}/login`)).text).toContain('shell s1');
  expect((await get(`${shell.url}/secret.txt`)).response.status).toBe(404);
  expect(logged).toEqual([`shell releases: shell: live.json names "../${path.basename(outside)}" as the live version, not a version name: refused; serving ${path.join(releases, 's1')}`]);
});

test("the shell's server answers no file of its releases folder but its releases' own: not the record, the lock or the pointer", async () => {
  const releases = folder('shell-releases');
  fs.mkdirSync(path.join(releases, 's1'));
  fs.writeFileSync(path.join(releases, 's1', 'index.html'), '<!doctype html><html lang="en-MY"><head></head><body>shell s1</body></html>');
  // An older layout left beside the release: the record with emails and a running command's lock.
  fs.writeFileSync(path.join(releases, 'releases.json'), JSON.stringify(addRelease(emptyPointer('shell'), { version: 's1', commit: 'abc1234', at: 'x', by: 'ana@example.my' }).pointer));
  fs.writeFileSync(path.join(releases, 'releases.lock'), '4242 build-host');
  writePointer(releases, addRelease(emptyPointer('shell'), { version: 's1', commit: 'abc1234', at: 'x', by: 'ana@example.my' }).pointer);
  await start(releases);
  expect((await get(`${shell.url}/`)).text).toContain('shell s1');
  for (const file of ['releases.json', 'releases.lock', 'live.json', '..%2freleases.json', '%2e%2e/releases.lock', 's1/../releases.json']) {
    const { response, text } = await get(`${shell.url}/${file}`);
    expect([file, response.status]).toEqual([file, 404]);
    expect(text).not.toContain('ana@example.my');
  }
});
