import { useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import * as RadixToast from '@radix-ui/react-toast';
import styled, { css, keyframes, type DefaultTheme } from 'styled-components';
import { media } from '../../theme/media';
import { SpinnerIcon } from '../Spinner';
import { AlertIcon, CheckIcon, CloseIcon } from '../icons';
import type { ToastEntry, ToastKind } from '../Toast';
import { closeButtonStyles } from '../closeButtonStyles';
import { useCatalog } from '../../i18n/useCatalog';
import { uiCatalog } from '../../i18n/ui-catalog';
import { toastDock } from './dock';

const slideIn = keyframes`from { opacity: 0; transform: translateY(8px); }`;

/*
 * Floating (no dialog open): at the top of a phone's screen, where a page's actions are not, and bottom right on a
 * desktop. Docked (a dialog is open): in the dialog's own layout, above its buttons, so it covers nothing.
 */
const Viewport = styled(RadixToast.Viewport)<{ $docked: boolean }>`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[2]};
  margin: 0;
  list-style: none;
  outline: none;
  ${({ $docked, theme }) =>
    $docked
      ? css`
          /* A tray between the dialog's scrolling body and its buttons: the body ends at its edge. */
          position: static;
          max-height: 40vh;
          overflow-y: auto;
          padding: ${theme.space[2]} ${theme.space[4]};
          border-top: 1px solid ${theme.colors.border};
          background: ${theme.colors.surfaceMuted};
          & > li {
            box-shadow: none;
            padding-top: ${theme.space[1]};
            padding-bottom: ${theme.space[1]};
          }
          &:empty {
            padding: 0;
            border: none;
          }
        `
      : css`
          position: fixed;
          z-index: ${theme.zIndices.toast};
          left: 0;
          right: 0;
          top: 0;
          padding: ${theme.space[3]};
          padding-top: max(${theme.space[3]}, env(safe-area-inset-top));
          pointer-events: none;
          ${media.desktop`
            top: auto;
            bottom: 0;
            left: auto;
            width: 400px;
            padding: ${theme.space[5]};
          `}
        `}
  @media print {
    display: none;
  }
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
  &[data-swipe='move'] {
    transform: translateX(var(--radix-toast-swipe-move-x));
  }
  &[data-swipe='end'] {
    transform: translateX(var(--radix-toast-swipe-end-x));
  }
  &:focus-visible {
    outline: none;
    box-shadow: ${({ theme }) => theme.focusRing};
  }
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
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
  ${closeButtonStyles}
`;

const icons: Record<ToastKind, ReactNode> = {
  success: <CheckIcon />,
  error: <AlertIcon />,
  progress: <SpinnerIcon size={20} />,
};

export type ToastLayerProps = { toasts: ToastEntry[]; duration: number; onRemove: (id: string) => void };

/** The Radix rendering of the toasts, loaded with the first toast (see ../Toast.tsx). */
export function ToastLayer({ toasts, duration, onRemove }: ToastLayerProps) {
  const { t } = useCatalog(uiCatalog);
  const dock = useSyncExternalStore(toastDock.subscribe, toastDock.current, () => null);
  // Radix puts the hotkey (F8) in place of {hotkey}.
  const viewport = <Viewport $docked={dock !== null} label={t('notificationsRegion', { hotkey: '{hotkey}' })} />;
  return (
    <RadixToast.Provider duration={duration} swipeDirection="right" label={t('notifications')}>
      {toasts.map((toast) => (
        <Root
          // A new key per update re-announces the changed message.
          key={`${toast.id}:${toast.version}`}
          $kind={toast.kind}
          data-kind={toast.kind}
          type={toast.kind === 'error' ? 'foreground' : 'background'}
          duration={toast.kind === 'progress' ? Infinity : duration}
          onOpenChange={(open) => {
            if (!open) onRemove(toast.id);
          }}
        >
          <Icon $kind={toast.kind} aria-hidden="true">
            {icons[toast.kind]}
          </Icon>
          <Message>{toast.message}</Message>
          <Close aria-label={t('dismissNotification')}>
            <CloseIcon size={18} />
          </Close>
        </Root>
      ))}
      {dock ? createPortal(viewport, dock) : viewport}
    </RadixToast.Provider>
  );
}
