import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/** Asks once more for each script the page preloaded from `base` (except `entry`); settles when all have ended. */
const spendPreloads = (base: string, entry: string) =>
  Promise.all(
    [...document.querySelectorAll<HTMLLinkElement>('link[rel=preload][as=script]')]
      .filter((link) => link.href.startsWith(base) && link.href !== entry)
      .map(
        (link) =>
          new Promise((settled) => {
            link.remove();
            const script = document.createElement('script');
            script.src = link.href;
            script.onload = script.onerror = () => settled(script.remove());
            document.head.append(script);
          }),
      ),
  );

/**
 * Chromium hands a failed `<link rel="preload">` to the next script of its URL (once) instead of asking again. The
 * shell's HTML preloads the page remote's chunks, which the remote's own loader asks for only after its entry has run:
 * when the remote was unreachable at page load, the first Retry would load the entry and then fail on those chunks.
 * So before an entry is asked for again, the preloads of its remote are spent (a chunk that does arrive registers
 * itself with the remote's loader, as a chunk loaded before its runtime does). The entry's own preload was already
 * spent by the first attempt.
 */
export const entryRetryPlugin = (): ModuleFederationRuntimePlugin => {
  const asked = new Set<string>();
  return {
    name: 'shell-entry-retry',
    async loadEntry({ remoteInfo: { name, entry } }) {
      if (asked.has(name)) await spendPreloads(entry.replace(/[^/]*$/, ''), entry);
      asked.add(name);
    },
  };
};
