// The release commands on built folders (`--from`): versions, the pointer on disk, pruning, and the contract refusals.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe as describePointer, failuresByVersion, readPointer, release, rollbackBundle, withLock } from './release';
import type { BundleName } from './rspack-common';

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

  const pointer = readPointer(path.join(root, 'booking-remote'), 'booking-remote');
  expect(pointer.live).toBe(second.version);
  expect(pointer.history.map((h) => [h.action, h.version, h.by])).toEqual([
    ['release', first.version, 'ana@example.my'],
    ['release', first.version, 'ana@example.my'],
    ['release', second.version, 'ana@example.my'],
  ]);
  expect(describePointer(pointer)).toContain(`${second.version}  commit`);

  rollbackBundle('booking-remote', { root, log: quiet, by: 'ben@example.my' });
  expect(readPointer(path.join(root, 'booking-remote'), 'booking-remote').live).toBe(first.version);
});

test('only the last N releases stay on disk', async () => {
  const versions: string[] = [];
  for (const marker of ['a', 'b', 'c']) versions.push((await release('admin-remote', { ...options, root, keep: 2, from: fakeBuild(marker, 'admin-remote', '^1.0.0', marker) })).version);
  expect(fs.readdirSync(path.join(root, 'admin-remote')).sort()).toEqual([...versions.slice(1), 'releases.json'].sort());
});

test('a remote whose needs the live shell does not meet is refused, naming the mismatch; --force releases it', async () => {
  await release('shell', { ...options, root, from: fakeBuild('s1', 'shell', '1.0.0', 'shell one') });
  const needsNewer = fakeBuild('b-new', 'booking-remote', '^2.0.0', 'needs 2', '^20.0.0');
  await expect(release('booking-remote', { ...options, root, from: needsNewer })).rejects.toThrow(
    'Refused: booking-remote would break what is live:\n  - booking-remote needs shell contract ^2.0.0; the shell provides 1.0.0\n  - booking-remote needs react ^20.0.0; the shell provides 19.3.1',
  );
  expect(fs.existsSync(path.join(root, 'booking-remote'))).toBe(false);
  const forced = await release('booking-remote', { ...options, root, from: needsNewer, force: true });
  expect(readPointer(path.join(root, 'booking-remote'), 'booking-remote').live).toBe(forced.version);
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
  const dir = path.join(root, 'booking-remote');
  let second: Promise<unknown> | undefined;
  await withLock(dir, async () => {
    second = withLock(dir, () => 'ran');
    await expect(second).rejects.toThrow(/Another release command is running on .*booking-remote \(\d+ /);
  });
  await expect(withLock(dir, () => 'ran')).resolves.toBe('ran');
  expect(fs.existsSync(path.join(dir, 'releases.lock'))).toBe(false);
});
