import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import * as RadixToast from '@radix-ui/react-toast';
import styled, { keyframes, type DefaultTheme } from 'styled-components';
import { media } from '../theme/media';
import { SpinnerIcon } from './Spinner';
import { AlertIcon, CheckIcon, CloseIcon } from './icons';

export type ToastKind = 'success' | 'error' | 'progress';

export type ToastApi = {
  success: (message: string) => string;
  error: (message: string) => string;
  /** Stays until update() turns it into success/error or dismiss() removes it. */
  progress: (message: string) => string;
  update: (id: string, next: { kind: ToastKind; message: string }) => void;
  dismiss: (id: string) => void;
};

type ToastEntry = { id: string; kind: ToastKind; message: string; version: number };

export const TOAST_DURATION_MS = 4000;
export const MAX_VISIBLE_TOASTS = 3;

const ToastContext = createContext<ToastApi | null>(null);

const slideIn = keyframes`from { opacity: 0; transform: translateY(8px); }`;

const Viewport = styled(RadixToast.Viewport)`
  position: fixed;
  z-index: ${({ theme }) => theme.zIndices.toast};
  left: 0;
  right: 0;
  bottom: 0;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[2]};
  margin: 0;
  padding: ${({ theme }) => theme.space[3]};
  padding-bottom: max(${({ theme }) => theme.space[3]}, env(safe-area-inset-bottom));
  list-style: none;
  outline: none;
  pointer-events: none;
  ${media.desktop`
    left: auto;
    width: 400px;
    padding: ${({ theme }) => theme.space[5]};
  `}
  @media print { display: none; }
`;

const kindColour = ({ theme, $kind }: { theme: DefaultTheme; $kind: ToastKind }) =>
  ({ success: theme.colors.success, error: theme.colors.danger, progress: theme.colors.brand })[$kind];

const Root = styled(RadixToast.Root)<{ $kind: ToastKind }>`
  pointer-events: auto;
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[3]};
  min-height: ${({ theme }) => theme.tapTarget};
  padding: ${({ theme }) => `${theme.space[2]} ${theme.space[2]} ${theme.space[2]} ${theme.space[4]}`};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-left: 4px solid ${kindColour};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadows.md};
  animation: ${slideIn} ${({ theme }) => theme.motion.normal} ${({ theme }) => theme.motion.easing};
  &[data-swipe='move'] { transform: translateX(var(--radix-toast-swipe-move-x)); }
  &[data-swipe='end'] { transform: translateX(var(--radix-toast-swipe-end-x)); }
  &:focus-visible { outline: none; box-shadow: ${({ theme }) => theme.focusRing}; }
  @media (prefers-reduced-motion: reduce) { animation: none; }
`;

const Icon = styled.span<{ $kind: ToastKind }>`
  display: inline-flex;
  flex: none;
  color: ${kindColour};
`;

const Message = styled(RadixToast.Description)`
  flex: 1;
  min-width: 0;
`;

const Close = styled(RadixToast.Close)`
  flex: none;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: ${({ theme }) => theme.tapTarget};
  height: ${({ theme }) => theme.tapTarget};
  border: 0;
  border-radius: ${({ theme }) => theme.radii.md};
  background: transparent;
  color: ${({ theme }) => theme.colors.textMuted};
  cursor: pointer;
  &:hover { background: ${({ theme }) => theme.colors.surfaceMuted}; }
  &:focus-visible { outline: none; box-shadow: ${({ theme }) => theme.focusRing}; }
`;

const icons: Record<ToastKind, ReactNode> = {
  success: <CheckIcon />,
  error: <AlertIcon />,
  progress: <SpinnerIcon size={20} />,
};

export type ToastProviderProps = {
  children?: ReactNode;
  /** Milliseconds a success/error toast stays (spec: 4 s). */
  duration?: number;
  /** Toasts shown at once; adding one more drops the oldest (spec: 3). */
  max?: number;
};

/** Holds the toasts and renders them in a Radix viewport; errors are announced assertively, the rest politely. */
export function ToastProvider({ children, duration = TOAST_DURATION_MS, max = MAX_VISIBLE_TOASTS }: ToastProviderProps) {
  const [toasts, setToasts] = useState<ToastEntry[]>([]);
  const nextId = useRef(0);

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
      update: (id, { kind, message }) =>
        setToasts((list) => list.map((t) => (t.id === id ? { id, kind, message, version: t.version + 1 } : t))),
      dismiss: remove,
    };
  }, [max, remove]);

  return (
    <ToastContext.Provider value={api}>
      <RadixToast.Provider duration={duration} swipeDirection="right" label="Notifications">
        {children}
        {toasts.map((toast) => (
          <Root
            // A new key per update re-announces the changed message.
            key={`${toast.id}:${toast.version}`}
            $kind={toast.kind}
            data-kind={toast.kind}
            type={toast.kind === 'error' ? 'foreground' : 'background'}
            duration={toast.kind === 'progress' ? Infinity : duration}
            onOpenChange={(open) => {
              if (!open) remove(toast.id);
            }}
          >
            <Icon $kind={toast.kind} aria-hidden="true">
              {icons[toast.kind]}
            </Icon>
            <Message>{toast.message}</Message>
            <Close aria-label="Dismiss notification">
              <CloseIcon size={18} />
            </Close>
          </Root>
        ))}
        <Viewport />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}

/** success/error/progress return the toast's id, for update() and dismiss(). */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider> (the shell and each standalone remote mount one).');
  return api;
}
