// What the page starts before the shared packages load: the remotes' addresses and the page's own remote.
import { remoteForPath } from '../app/remoteForPath';
import {
  loadRemoteRoutes,
  onEntryScriptRequested,
  registerRemotesFromConfig,
  type RemoteLoader,
  type RoutesModule,
} from './remotes';
import { loadRuntimeConfig, type RemoteName, type RuntimeConfig } from './runtimeConfig';

export type Startup = {
  config: Promise<RuntimeConfig>;
  loaders: Record<RemoteName, RemoteLoader>;
  /** Settles once the page's remote is downloading (or has failed, or after `maxWaitMs`): the shell may run. */
  pageRemoteUnderWay: Promise<void>;
  pageRemote: RemoteName;
  /** The page remote's routes once loaded; undefined when the load failed (the slot's own load then reports it). */
  pageRemoteLoaded: Promise<RoutesModule | undefined>;
};

/** Longest the shell's own start waits for the page's remote to be requested (a hung remote must not blank the page). */
export const MAX_WAIT_FOR_REMOTE_MS = 1000;

/** A loader whose first call takes the load already under way; later calls (Retry) load afresh. */
export function takeStartedLoadFirst(started: Promise<RoutesModule>, load: RemoteLoader): RemoteLoader {
  // Nobody may be waiting yet when it fails: the error is handed over at the first call, not reported as unhandled.
  started.catch(() => undefined);
  let first: Promise<RoutesModule> | undefined = started;
  return () => {
    const taken = first ?? load();
    first = undefined;
    return taken;
  };
}

/**
 * Reads remotes.json, registers the remotes and starts loading the remote of `pathname`. The shell's bootstrap
 * should wait for `pageRemoteUnderWay`: its evaluation is one long task, and the remote's entry then downloads
 * during it instead of after the first render.
 */
export function startRemotes(
  pathname: string,
  readConfig: () => Promise<RuntimeConfig> = loadRuntimeConfig,
  maxWaitMs = MAX_WAIT_FOR_REMOTE_MS,
): Startup {
  const pageRemote = remoteForPath(pathname);
  let markRequested = () => undefined as void;
  const requested = new Promise<void>((resolve) => (markRequested = resolve));
  onEntryScriptRequested(pageRemote, () => markRequested());

  // From a microtask, not the entry's top level: with DevTools attached (Lighthouse, the bench), a request's initiator
  // stack is recorded, and a stack holding main.js's top-level function makes V8 re-parse all of it (~230 ms at 4x).
  const config = Promise.resolve()
    .then(() => readConfig())
    .then((loaded) => {
      registerRemotesFromConfig(loaded);
      return loaded;
    });
  const loaders: Record<RemoteName, RemoteLoader> = {
    booking: loadRemoteRoutes('booking'),
    admin: loadRemoteRoutes('admin'),
  };
  const load = loaders[pageRemote];
  const started = config.then(() => load());
  loaders[pageRemote] = takeStartedLoadFirst(started, load);

  const pageRemoteLoaded = started.then(
    (module) => module,
    () => undefined,
  );
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, maxWaitMs));
  const pageRemoteUnderWay = Promise.race([requested, pageRemoteLoaded.then(() => undefined), timeout]);
  return { config, loaders, pageRemoteUnderWay, pageRemote, pageRemoteLoaded };
}
