import { entryRetryPlugin } from './entryRetryPlugin';

type LoadEntryArgs = Parameters<NonNullable<ReturnType<typeof entryRetryPlugin>['loadEntry']>>[0];

const adminEntry = 'http://a.test/remoteEntry.js';
const adminChunks = ['http://a.test/356.05d958ecad.js', 'http://a.test/__federation_expose_routes.cf589042f5.js'];
const bookingChunk = 'http://b.test/640.1234567890.js';

const loadEntry = async (plugin: ReturnType<typeof entryRetryPlugin>, name: string, entry: string) =>
  plugin.loadEntry!({ remoteInfo: { name, entry } } as LoadEntryArgs);

/** The shell's HTML as served for /login: preloads of admin's entry and route chunks (and one of another remote). */
function preloadHints(): void {
  for (const href of [adminEntry, ...adminChunks, bookingChunk]) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.setAttribute('as', 'script');
    link.href = href;
    document.head.append(link);
  }
}

const scriptsAskedFor = () => [...document.querySelectorAll('script')].map((script) => script.src);
const preloadsLeft = () => [...document.querySelectorAll<HTMLLinkElement>('link[rel=preload]')].map((link) => link.href);

describe('entryRetryPlugin', () => {
  beforeEach(() => {
    document.head.innerHTML = '';
    preloadHints();
  });

  it('leaves the page\'s preloads to the first load of an entry', async () => {
    await expect(loadEntry(entryRetryPlugin(), 'admin', adminEntry)).resolves.toBeUndefined();
    expect(scriptsAskedFor()).toEqual([]);
    expect(preloadsLeft()).toHaveLength(4);
  });

  it('before an entry is asked for again, asks once more for each chunk its remote preloaded, and waits until each has ended', async () => {
    const plugin = entryRetryPlugin();
    await loadEntry(plugin, 'admin', adminEntry);

    let retried = false;
    const retry = loadEntry(plugin, 'admin', adminEntry).then((result) => {
      retried = true;
      return result;
    });
    // The entry's own preload was spent by the first attempt; the other remote's hint is not this remote's.
    expect(scriptsAskedFor()).toEqual(adminChunks);
    const [failed, arrived] = [...document.querySelectorAll('script')];
    failed.dispatchEvent(new Event('error'));
    await Promise.resolve();
    expect(retried).toBe(false);
    arrived.dispatchEvent(new Event('load'));
    // Nothing handed back: the runtime then loads the entry itself.
    await expect(retry).resolves.toBeUndefined();
    expect(scriptsAskedFor()).toEqual([]);
    expect(preloadsLeft()).toEqual([adminEntry, bookingChunk]);
  });

  it('spends the preloads once: a later Retry leaves the chunks to the remote\'s own loader', async () => {
    const plugin = entryRetryPlugin();
    await loadEntry(plugin, 'admin', adminEntry);
    const retry = loadEntry(plugin, 'admin', adminEntry);
    for (const script of document.querySelectorAll('script')) script.dispatchEvent(new Event('error'));
    await retry;

    await expect(loadEntry(plugin, 'admin', adminEntry)).resolves.toBeUndefined();
    expect(scriptsAskedFor()).toEqual([]);
  });

  it('counts attempts per remote', async () => {
    const plugin = entryRetryPlugin();
    await loadEntry(plugin, 'admin', adminEntry);
    await loadEntry(plugin, 'booking', 'http://b.test/remoteEntry.js');
    expect(scriptsAskedFor()).toEqual([]);
  });
});
