import type { ComponentType } from 'react';
import {
  getInstance,
  loadRemote,
  registerPlugins,
  registerRemotes,
  type ModuleFederationRuntimePlugin,
} from '@module-federation/enhanced/runtime';
import { entryRetryPlugin } from './entryRetryPlugin';
import { isUnavailableRemoteModule, remoteFallbackPlugin } from './fallbackPlugin';
import { remoteVersions, type RemoteName, type RuntimeConfig } from './runtimeConfig';

export type RoutesModule = { default: ComponentType };
export type RemoteLoader = () => Promise<RoutesModule>;

export class RemoteUnavailableError extends Error {
  constructor(
    readonly remote: RemoteName,
    override readonly cause?: unknown,
  ) {
    super(`The ${remote} remote could not be loaded`);
    this.name = 'RemoteUnavailableError';
  }
}

/** The bundle's federation instance, or the runtime's global API where the bundler made none. */
const federation = () => getInstance() ?? { registerPlugins, registerRemotes, loadRemote };

/** Registers both remotes (addressed by their remoteEntry.js) with the shell's federation runtime. */
export function registerRemotesFromConfig(config: RuntimeConfig): void {
  Object.assign(remoteVersions, config.versions);
  const runtime = federation();
  runtime.registerPlugins([remoteFallbackPlugin(), entryRetryPlugin()]);
  runtime.registerRemotes((['booking', 'admin'] as const).map((name) => ({ name, entry: config[name] })));
}

/** Calls `onRequested` when the runtime asks the browser for `remote`'s entry script (the download has begun). */
export function onEntryScriptRequested(remote: RemoteName, onRequested: () => void): void {
  const plugin: ModuleFederationRuntimePlugin = {
    name: `shell-entry-requested-${remote}`,
    createScript({ remoteInfo }) {
      if (remoteInfo?.name === remote) onRequested();
      // nothing returned: the runtime creates the script itself
    },
  };
  federation().registerPlugins([plugin]);
}

/** Loads `<remote>/routes`; rejects (so the error boundary shows Retry) when the remote is unreachable. */
export const loadRemoteRoutes =
  (name: RemoteName): RemoteLoader =>
  async () => {
    const loaded = await federation().loadRemote<unknown>(`${name}/routes`);
    const module = typeof loaded === 'function' ? (loaded as () => unknown)() : loaded;
    if (isUnavailableRemoteModule(module)) throw new RemoteUnavailableError(name, module.remoteLoadError);
    if (!module || typeof (module as RoutesModule).default !== 'function') throw new RemoteUnavailableError(name);
    return module as RoutesModule;
  };
