// The three deployable bundles, their build configs and where their production output lives.
import fs from 'node:fs';
import path from 'node:path';
import type { BundleName } from './rspack-common';

// Kept free of rspack imports: the server start-up, e2e tests and the benchmark load this file.
export const repoRoot = path.resolve(__dirname, '..');

export const bundleNames: BundleName[] = ['shell', 'booking-remote', 'admin-remote'];

export const distDir = (name: BundleName) => path.join(repoRoot, 'dist', name);
/** Where releases live on this machine: `$RELEASES_DIR/<bundle>/` (default `.releases/`, served by `npm start`). */
export const releasesRoot = (env: NodeJS.ProcessEnv = process.env): string => path.resolve(env.RELEASES_DIR || path.join(repoRoot, '.releases'));
export const releasesDirOf = (bundle: BundleName, root = releasesRoot()): string => path.join(root, bundle);
/**
 * The release commands' own state, never served: `$RELEASES_STATE_DIR/<bundle>/` (default `$RELEASES_DIR/state/`), with
 * the record of who released what (`releases.json`) and the lock (`releases.lock`).
 */
export const releasesStateRoot = (env: NodeJS.ProcessEnv = process.env): string => path.resolve(env.RELEASES_STATE_DIR || path.join(releasesRoot(env), 'state'));
export const analysisFile = (name: BundleName) => path.join(repoRoot, 'dist', '.analysis', `${name}.json`);

// A change in any of these rebuilds the bundle (the shared packages are compiled into every bundle).
const sourcesOf = (name: BundleName) => [
  path.join(repoRoot, name, 'src'),
  path.join(repoRoot, name, 'public'),
  // Its `shellContract` goes into contract.json.
  path.join(repoRoot, name, 'package.json'),
  path.join(repoRoot, 'shared-ui', 'src'),
  path.join(repoRoot, 'shared-api', 'src'),
  path.join(repoRoot, 'shared-api', 'package.json'),
  path.join(repoRoot, 'brand.config.json'),
  path.join(repoRoot, 'scripts', 'rspack-common.ts'),
  path.join(repoRoot, 'scripts', 'federation'),
  path.join(repoRoot, { shell: 'rspack.shell.config.ts', 'booking-remote': 'rspack.booking.config.ts', 'admin-remote': 'rspack.admin.config.ts' }[name]),
];

function newestMtime(target: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Missing, or older than one of its sources. */
export function needsBuild(name: BundleName): boolean {
  const manifest = path.join(distDir(name), 'mf-manifest.json');
  if (!fs.existsSync(manifest) || !fs.existsSync(path.join(distDir(name), 'index.html'))) return true;
  const builtAt = fs.statSync(manifest).mtimeMs;
  return sourcesOf(name).some((source) => newestMtime(source) > builtAt);
}
