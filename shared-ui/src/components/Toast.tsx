import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { lazyModule } from '../utils/lazyModule';

export type ToastKind = 'success' | 'error' | 'progress';

export type ToastApi = {
  success: (message: string) => string;
  error: (message: string) => string;
  /** Stays until update() turns it into success/error or dismiss() removes it. */
  progress: (message: string) => string;
  update: (id: string, next: { kind: ToastKind; message: string }) => void;
  dismiss: (id: string) => void;
};

export type ToastEntry = { id: string; kind: ToastKind; message: string; version: number };

export const TOAST_DURATION_MS = 4000;
export const MAX_VISIBLE_TOASTS = 3;

const ToastContext = createContext<ToastApi | null>(null);

const layerCode = lazyModule(() => import(/* webpackChunkName: "shared-ui-toast" */ './toast/ToastLayer'));

/** Fetches the toast rendering code ahead of the first toast. Never rejects. */
export const preloadToasts = (): Promise<void> =>
  layerCode.preload().then(
    () => undefined,
    () => undefined,
  );

export type ToastProviderProps = {
  children?: ReactNode;
  /** Milliseconds a success/error toast stays (spec: 4 s). */
  duration?: number;
  /** Toasts shown at once; adding one more drops the oldest (spec: 3). */
  max?: number;
};

/**
 * Holds the toasts; Radix renders them (its code arrives with the first toast). Errors are announced
 * assertively, success and progress politely.
 */
export function ToastProvider({
  children,
  duration = TOAST_DURATION_MS,
  max = MAX_VISIBLE_TOASTS,
}: ToastProviderProps) {
  const [toasts, setToasts] = useState<ToastEntry[]>([]);
  const nextId = useRef(0);
  const { module: layer } = layerCode.useModule(toasts.length > 0);

  const remove = useCallback((id: string) => setToasts((list) => list.filter((t) => t.id !== id)), []);

  const api = useMemo<ToastApi>(() => {
    const add = (kind: ToastKind) => (message: string) => {
      nextId.current += 1;
      const id = `toast-${nextId.current}`;
      setToasts((list) => [...list, { id, kind, message, version: 0 }].slice(-max));
      return id;
    };
    return {
      success: add('success'),
      error: add('error'),
      progress: add('progress'),
      // A progress toast pushed out (or closed) before its outcome: the outcome still shows, as a new toast.
      update: (id, { kind, message }) =>
        setToasts((list) =>
          list.some((t) => t.id === id)
            ? list.map((t) => (t.id === id ? { id, kind, message, version: t.version + 1 } : t))
            : [...list, { id, kind, message, version: 0 }].slice(-max),
        ),
      dismiss: remove,
    };
  }, [max, remove]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      {layer && <layer.ToastLayer toasts={toasts} duration={duration} onRemove={remove} />}
    </ToastContext.Provider>
  );
}

/** success/error/progress return the toast's id, for update() and dismiss(). */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api)
    throw new Error(
      'useToast must be used inside <ToastProvider> (the shell and each standalone remote mount one).',
    );
  return api;
}
