// The release commands on built folders (`--from`): versions, the pointer on disk, pruning, the contract refusals, and
// what the releases folder holds for its host to serve (the lock and people's names are kept elsewhere).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe as describePointer, failuresByVersion, readPointer, release, releaseDirs, rollbackBundle, withLock } from './release';
import type { BundleName } from './rspack-common';
import { startStaticServer } from '../shell/server/static-files';

let root: string;
let builds: string;
const quiet = () => undefined;
const noPlainBuild = (bundle: BundleName) => path.join(builds, `none-${bundle}`);

/** A built folder as the build writes it: index.html, a chunk and contract.json. */
function fakeBuild(name: string, bundle: BundleName, shellContract: string, marker: string, react = bundle === 'shell' ? '19.3.1' : '^19.2.0'): string {
  const folder = path.join(builds, name);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'index.html'), `<html>${marker}</html>`);
  fs.writeFileSync(path.join(folder, 'main.0123456789.js'), `console.log(${JSON.stringify(marker)})`);
  fs.writeFileSync(path.join(folder, 'contract.json'), JSON.stringify({ bundle, shellContract, shared: { react } }));
  return folder;
}

const options = { log: quiet, by: 'ana@example.my', plainBuild: noPlainBuild };

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'releases-'));
  builds = fs.mkdtempSync(path.join(os.tmpdir(), 'builds-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(builds, { recursive: true, force: true });
});

test('a release is copied, immutable, under its version; the pointer records it; the same files are the same version', async () => {
  const first = await release('booking-remote', { ...options, root, from: fakeBuild('b1', 'booking-remote', '^1.0.0', 'one') });
  expect(first.version).toMatch(/^[0-9a-f]{10}-[0-9a-z]+$/);
  expect(fs.readFileSync(path.join(root, 'booking-remote', first.version, 'index.html'), 'utf8')).toBe('<html>one</html>');
  const again = await release('booking-remote', { ...options, root, from: fakeBuild('b1-copy', 'booking-remote', '^1.0.0', 'one') });
  expect(again.version).toBe(first.version);
  const second = await release('booking-remote', { ...options, root, from: fakeBuild('b2', 'booking-remote', '^1.0.0', 'two') });
  expect(second.version).not.toBe(first.version);

  const pointer = readPointer(releaseDirs('booking-remote', root), 'booking-remote');
  expect(pointer.live).toBe(second.version);
  expect(pointer.history.map((h) => [h.action, h.version, h.by])).toEqual([
    ['release', first.version, 'ana@example.my'],
    ['release', first.version, 'ana@example.my'],
    ['release', second.version, 'ana@example.my'],
  ]);
  expect(describePointer(pointer)).toContain(`${second.version}  commit`);

  rollbackBundle('booking-remote', { root, log: quiet, by: 'ben@example.my' });
  expect(readPointer(releaseDirs('booking-remote', root), 'booking-remote').live).toBe(first.version);
});

test('only the last N releases stay on disk', async () => {
  const versions: string[] = [];
  for (const marker of ['a', 'b', 'c']) versions.push((await release('admin-remote', { ...options, root, keep: 2, from: fakeBuild(marker, 'admin-remote', '^1.0.0', marker) })).version);
  expect(fs.readdirSync(path.join(root, 'admin-remote')).sort()).toEqual([...versions.slice(1), 'live.json'].sort());
});

test('a remote whose needs the live shell does not meet is refused, naming the mismatch; --force releases it', async () => {
  await release('shell', { ...options, root, from: fakeBuild('s1', 'shell', '1.0.0', 'shell one') });
  const needsNewer = fakeBuild('b-new', 'booking-remote', '^2.0.0', 'needs 2', '^20.0.0');
  await expect(release('booking-remote', { ...options, root, from: needsNewer })).rejects.toThrow(
    'Refused: booking-remote would break what is live:\n  - booking-remote needs shell contract ^2.0.0; the shell provides 1.0.0\n  - booking-remote needs react ^20.0.0; the shell provides 19.3.1',
  );
  expect(fs.existsSync(path.join(root, 'booking-remote'))).toBe(false);
  const forced = await release('booking-remote', { ...options, root, from: needsNewer, force: true });
  expect(readPointer(releaseDirs('booking-remote', root), 'booking-remote').live).toBe(forced.version);
});

test('a shell that would break a live remote is refused, and so is rolling the shell back under one', async () => {
  await release('shell', { ...options, root, from: fakeBuild('s1', 'shell', '1.0.0', 'shell one') });
  await release('booking-remote', { ...options, root, from: fakeBuild('b1', 'booking-remote', '^1.0.0', 'one') });
  await expect(release('shell', { ...options, root, from: fakeBuild('s2', 'shell', '2.0.0', 'shell two') })).rejects.toThrow(
    /Refused: shell would break what is live:\n {2}- booking-remote needs shell contract \^1\.0\.0; the shell provides 2\.0\.0 \(live booking-remote [0-9a-f]{10}-/,
  );
  // A shell providing 1.1.0 fits; a remote needing ^1.1.0 goes live with it; the old shell would no longer do.
  await release('shell', { ...options, root, from: fakeBuild('s3', 'shell', '1.1.0', 'shell three') });
  await release('booking-remote', { ...options, root, from: fakeBuild('b2', 'booking-remote', '^1.1.0', 'two') });
  expect(() => rollbackBundle('shell', { root, log: quiet })).toThrow('booking-remote needs shell contract ^1.1.0; the shell provides 1.0.0');
});

test('rolling a remote back to a release the live shell cannot host is refused', async () => {
  await release('shell', { ...options, root, from: fakeBuild('s1', 'shell', '2.0.0', 'shell one') });
  await release('booking-remote', { ...options, root, force: true, from: fakeBuild('b1', 'booking-remote', '^1.0.0', 'one') });
  await release('booking-remote', { ...options, root, from: fakeBuild('b2', 'booking-remote', '^2.0.0', 'two') });
  expect(() => rollbackBundle('booking-remote', { root, log: quiet })).toThrow('booking-remote needs shell contract ^1.0.0; the shell provides 2.0.0');
  expect(rollbackBundle('booking-remote', { root, log: quiet, force: true }).history.at(-1)?.action).toBe('rollback');
});

test('a canary needs a live release and is for remotes only', async () => {
  await expect(release('booking-remote', { ...options, root, canary: 10, from: fakeBuild('b1', 'booking-remote', '^1.0.0', 'one') })).rejects.toThrow('no live release yet');
  await expect(release('shell', { ...options, root, canary: 10, from: fakeBuild('s1', 'shell', '1.0.0', 'one') })).rejects.toThrow('A canary is for a remote');
});

test("a collector's reports are counted per version of the remote: load failures and all", () => {
  const lines = [
    { remote: 'booking', buildId: 'v1', message: 'The booking remote could not be loaded' },
    { remote: 'booking', buildId: 'v2', message: 'The booking remote could not be loaded' },
    { remote: 'booking', buildId: 'v2', message: 'x is undefined' },
    { remote: 'admin', buildId: 'a1', message: 'The admin remote could not be loaded' },
  ].map((report) => JSON.stringify(report));
  expect(failuresByVersion('booking-remote', [...lines, 'not json', ''])).toEqual({ v1: { reports: 1, loadFailures: 1 }, v2: { reports: 2, loadFailures: 1 } });
});

test('one release command at a time per bundle', async () => {
  const dirs = releaseDirs('booking-remote', root);
  let second: Promise<unknown> | undefined;
  await withLock(dirs, async () => {
    second = withLock(dirs, () => 'ran');
    await expect(second).rejects.toThrow(/Another release command is running on .*booking-remote \(\d+ /);
  });
  await expect(withLock(dirs, () => 'ran')).resolves.toBe('ran');
  expect(fs.existsSync(path.join(dirs.state, 'releases.lock'))).toBe(false);
});

/** The bundle's releases folder served as `npm start` serves it at `<booking's address>/releases/` (scripts/product.ts). */
async function servedReleases(bundle: BundleName) {
  const host = await startStaticServer({ root: builds, port: 0, host: '127.0.0.1', spaFallback: true, cors: true, releaseMounts: { '/releases/': path.join(root, bundle) } });
  const get = async (file: string) => {
    const response = await fetch(`${host.url}/releases/${file}`);
    return { status: response.status, text: await response.text() };
  };
  return { get, close: host.close };
}

test("the served folder holds the versions and a pointer naming nobody; the lock and who released what are in the state folder, and the host answers 404 for them", async () => {
  const first = await release('booking-remote', { ...options, root, from: fakeBuild('b1', 'booking-remote', '^1.0.0', 'one') });
  const { served, state } = releaseDirs('booking-remote', root);
  expect(fs.readdirSync(served).sort()).toEqual([first.version, 'live.json'].sort());
  expect(fs.readFileSync(path.join(served, 'live.json'), 'utf8')).not.toContain('ana@example.my');
  expect(JSON.parse(fs.readFileSync(path.join(state, 'releases.json'), 'utf8')).history[0].by).toBe('ana@example.my');
  const host = await servedReleases('booking-remote');
  try {
    // While a command runs its lock (pid and host name) exists, and is not the host's to answer.
    await withLock(releaseDirs('booking-remote', root), async () => {
      expect(fs.readFileSync(path.join(state, 'releases.lock'), 'utf8')).toContain(os.hostname());
      expect(fs.readdirSync(served).sort()).toEqual([first.version, 'live.json'].sort());
      for (const file of ['releases.lock', 'releases.json', '../state/booking-remote/releases.lock', '%2e%2e/state/booking-remote/releases.json', ''])
        expect([file, (await host.get(file)).status]).toEqual([file, 404]);
    });
    const pointer = await host.get('live.json');
    expect(pointer.status).toBe(200);
    expect(JSON.parse(pointer.text)).toMatchObject({ live: first.version, releases: [{ version: first.version, commit: expect.any(String) }] });
    expect(pointer.text).not.toContain('@');
    expect(await host.get(`${first.version}/index.html`)).toEqual({ status: 200, text: '<html>one</html>' });
  } finally {
    await host.close();
  }
  expect(describePointer(readPointer(releaseDirs('booking-remote', root), 'booking-remote'))).toContain('by ana@example.my');
});

test('an older layout (releases.json with emails, a lock in the served folder) is refused by the host and moved by the next command, under its lock', async () => {
  const first = await release('booking-remote', { ...options, root, from: fakeBuild('b1', 'booking-remote', '^1.0.0', 'one') });
  const dirs = releaseDirs('booking-remote', root);
  // As the commands left it before issue 35: the record in the served folder, a copy under way, a lock (pid and host).
  fs.renameSync(path.join(dirs.state, 'releases.json'), path.join(dirs.served, 'releases.json'));
  fs.rmSync(path.join(dirs.served, 'live.json'));
  const oldLock = path.join(dirs.served, 'releases.lock');
  fs.writeFileSync(oldLock, `4242 build-host ${new Date().toISOString()}\n`);
  fs.mkdirSync(path.join(dirs.served, `${first.version}.4242.tmp`));
  fs.writeFileSync(path.join(dirs.served, `${first.version}.4242.tmp`, 'index.html'), 'half');
  const host = await servedReleases('booking-remote');
  try {
    for (const file of ['releases.json', 'releases.lock', `${first.version}.4242.tmp/index.html`]) expect([file, (await host.get(file)).status]).toEqual([file, 404]);
  } finally {
    await host.close();
  }
  fs.rmSync(path.join(dirs.served, `${first.version}.4242.tmp`), { recursive: true });

  // A command of the previous version still running (its lock is fresh): refused, naming it; once stale, taken over.
  await expect(withLock(dirs, () => 'ran')).rejects.toThrow('(4242 build-host');
  const longAgo = new Date(Date.now() - 31 * 60_000);
  fs.utimesSync(oldLock, longAgo, longAgo);
  const lines: string[] = [];
  const second = await withLock(dirs, () => release('booking-remote', { ...options, root, log: (line) => lines.push(line), by: 'ben@example.my', from: fakeBuild('b2', 'booking-remote', '^1.0.0', 'two') }));
  expect(lines[0]).toBe(`booking-remote: moved releases.json (who released what) from ${dirs.served} to ${dirs.state}; ${dirs.served} now publishes live.json`);
  expect(fs.readdirSync(dirs.served).sort()).toEqual([first.version, second.version, 'live.json'].sort());
  expect(fs.readFileSync(path.join(dirs.served, 'live.json'), 'utf8')).not.toContain('@');
  expect(readPointer(dirs, 'booking-remote').history.map((h) => [h.version, h.by])).toEqual([
    [first.version, 'ana@example.my'],
    [second.version, 'ben@example.my'],
  ]);
});
