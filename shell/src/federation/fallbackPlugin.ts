import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/** Marks the module the fallback plugin hands back when a remote cannot be loaded. */
export type UnavailableRemoteModule = { __esModule: true; remoteLoadError: unknown; default: () => null };

export const isUnavailableRemoteModule = (value: unknown): value is UnavailableRemoteModule =>
  Boolean(value && typeof value === 'object' && 'remoteLoadError' in value);

/**
 * A remote that is down must not reject deep inside the runtime: at `onLoad` hand back a module factory that
 * carries the error, so the shell's error boundary for that remote shows its panel. Other lifecycles return
 * nothing (a value there would be taken as a manifest or a shared module).
 */
export const remoteFallbackPlugin = (): ModuleFederationRuntimePlugin => ({
  name: 'shell-remote-fallback',
  errorLoadRemote(args) {
    if (args.lifecycle !== 'onLoad') return undefined;
    const module: UnavailableRemoteModule = { __esModule: true, remoteLoadError: args.error, default: () => null };
    return () => module;
  },
});
