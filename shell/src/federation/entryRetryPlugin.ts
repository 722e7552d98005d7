import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/**
 * The shell's HTML preloads the page's remoteEntry.js. When that preload failed (the remote was down at page load),
 * Chromium answers every later script of the same URL in the page with the same failure, so each further attempt
 * at a remote's entry (the error panel's Retry) asks for it under a URL of its own.
 */
export const entryRetryPlugin = (): ModuleFederationRuntimePlugin => {
  const attempts = new Map<string, number>();
  return {
    name: 'shell-entry-retry-url',
    createScript({ url, remoteInfo }) {
      const name = remoteInfo?.name ?? url;
      const attempt = attempts.get(name) ?? 0;
      attempts.set(name, attempt + 1);
      if (attempt === 0) return undefined;
      const script = document.createElement('script');
      script.src = `${url}${url.includes('?') ? '&' : '?'}attempt=${attempt}`;
      return script;
    },
  };
};
