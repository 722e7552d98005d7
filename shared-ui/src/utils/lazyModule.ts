import { useEffect, useState } from 'react';

export type LazyModule<T> = {
  /** Starts (or reuses) the download; a failed download may be retried by calling again. */
  preload: () => Promise<T>;
  /** The module once loaded (synchronously if it already was); loads it while `needed`. */
  useModule: (needed: boolean) => { module: T | undefined; failed: boolean; retry: () => void };
};

/** Keeps heavy Radix code out of the first load: it is fetched when a component first needs it. */
export function lazyModule<T>(load: () => Promise<T>): LazyModule<T> {
  let loaded: T | undefined;
  let pending: Promise<T> | undefined;

  const preload = () => {
    pending ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };

  function useModule(needed: boolean) {
    const [module, setModule] = useState(loaded);
    const [failed, setFailed] = useState(false);
    const [attempt, setAttempt] = useState(0);
    useEffect(() => {
      if (!needed || module) return;
      let live = true;
      preload().then(
        (m) => live && setModule(() => m),
        () => live && setFailed(true),
      );
      return () => {
        live = false;
      };
    }, [needed, module, attempt]);
    const retry = () => {
      setFailed(false);
      setAttempt((n) => n + 1);
    };
    return { module: module ?? loaded, failed, retry };
  }

  return { preload, useModule };
}
