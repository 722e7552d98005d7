// What the bundles take instead of two parts of the federation runtime core that no bundle reaches: the snapshot
// handler (a remote's manifest and preloadRemote's snapshot: every bundle is built with `disableSnapshot` and the shell
// addresses remotes by their remoteEntry.js) and the asset preloader behind preloadRemote (never called). Together they
// were ~2.4 KB gzip of every first load. Swapped in by rspack-common.ts's NormalModuleReplacementPlugin for core.js's
// and helpers.js's requests only (remote/index.js still takes getGlobalRemoteInfo from the real file).

const notUsed = (what: string): never => {
  throw new Error(`${what} is not built into these bundles (scripts/federation/runtime-stubs.ts)`);
};

/** core.js's `new SnapshotHandler(host)`: what removeRemote and registerPlugins read of it, and nothing to load. */
export class SnapshotHandler {
  readonly manifestCache = new Map<string, unknown>();
  // A plugin's snapshot hooks (loadSnapshot, loadRemoteSnapshot, …) have nothing to run on: it applies to none of them.
  readonly hooks = { registerPlugins: {}, lifecycle: {}, lifecycleKeys: [] as string[], applyPlugin: () => undefined };
  loadRemoteSnapshotInfo(): never {
    return notUsed('A remote snapshot (manifest, preloadRemote)');
  }
}

// utils/preload.js, as remote/index.js (preloadRemote) and helpers.js import it.
export const defaultPreloadArgs = (): never => notUsed('preloadRemote');
export const formatPreloadArgs = (): never => notUsed('preloadRemote');
export const normalizePreloadExposes = (): never => notUsed('preloadRemote');
export const preloadAssets = (): never => notUsed('preloadRemote');
