import { isUnavailableRemoteModule, remoteFallbackPlugin } from './fallbackPlugin';

type ErrorArgs = Parameters<NonNullable<ReturnType<typeof remoteFallbackPlugin>['errorLoadRemote']>>[0];

describe('remoteFallbackPlugin', () => {
  const hook = remoteFallbackPlugin().errorLoadRemote!;

  it('hands back a module factory carrying the error at onLoad', () => {
    const error = new Error('down');
    const factory = hook({ id: 'admin/routes', error, lifecycle: 'onLoad', from: 'runtime' } as ErrorArgs);
    expect(typeof factory).toBe('function');
    const module = (factory as () => unknown)();
    expect(isUnavailableRemoteModule(module)).toBe(true);
    expect((module as { remoteLoadError: unknown }).remoteLoadError).toBe(error);
  });

  it.each(['afterResolve', 'beforeRequest', 'beforeLoadShare'])('returns nothing at %s', (lifecycle) => {
    expect(hook({ id: 'x', error: new Error('down'), lifecycle, from: 'runtime' } as ErrorArgs)).toBeUndefined();
  });
});
