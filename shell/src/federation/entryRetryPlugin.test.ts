import { entryRetryPlugin } from './entryRetryPlugin';

type ScriptArgs = Parameters<NonNullable<ReturnType<typeof entryRetryPlugin>['createScript']>>[0];

const ask = (plugin: ReturnType<typeof entryRetryPlugin>, name: string, url: string) =>
  plugin.createScript!({ url, attrs: {}, remoteInfo: { name, entry: url } } as ScriptArgs);

describe('entryRetryPlugin', () => {
  it('leaves the first request for an entry alone, so it takes the preload from the HTML', () => {
    expect(ask(entryRetryPlugin(), 'booking', 'http://b.test/remoteEntry.js')).toBeUndefined();
  });

  it('asks again under a new URL each time, per remote', () => {
    const plugin = entryRetryPlugin();
    ask(plugin, 'booking', 'http://b.test/remoteEntry.js');
    ask(plugin, 'admin', 'http://a.test/remoteEntry.js?v=2');
    expect((ask(plugin, 'booking', 'http://b.test/remoteEntry.js') as HTMLScriptElement).src).toBe('http://b.test/remoteEntry.js?attempt=1');
    expect((ask(plugin, 'booking', 'http://b.test/remoteEntry.js') as HTMLScriptElement).src).toBe('http://b.test/remoteEntry.js?attempt=2');
    expect((ask(plugin, 'admin', 'http://a.test/remoteEntry.js?v=2') as HTMLScriptElement).src).toBe('http://a.test/remoteEntry.js?v=2&attempt=1');
  });
});
