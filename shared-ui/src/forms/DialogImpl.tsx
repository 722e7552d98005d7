// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { closeButtonStyles, CloseIcon, keyframes, media, styled, toastDock, useCatalog } from 'shared-ui';
import { formsCatalog } from './i18n';
import type { DialogProps, DialogSize } from './Dialog';

const widths: Record<DialogSize, string> = { sm: '420px', md: '560px', lg: '760px' };

const fadeIn = keyframes`from { opacity: 0; }`;
const riseIn = keyframes`from { opacity: 0; transform: translateY(8px) scale(0.98); }`;

const Overlay = styled(RadixDialog.Overlay)`
  position: fixed;
  inset: 0;
  z-index: ${({ theme }) => theme.zIndices.overlay};
  background: ${({ theme }) => theme.colors.overlay};
  animation: ${fadeIn} ${({ theme }) => theme.motion.normal} ease-out;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;

/* Phones: the whole screen. Desktop: a centred card. */
const Content = styled(RadixDialog.Content)<{ $size: DialogSize }>`
  position: fixed;
  inset: 0;
  z-index: ${({ theme }) => theme.zIndices.dialog};
  display: flex;
  flex-direction: column;
  width: 100%;
  height: 100%;
  height: 100dvh;
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  outline: none;
  animation: ${riseIn} ${({ theme }) => theme.motion.normal} ${({ theme }) => theme.motion.easing};

  ${media.desktop`
    inset: auto;
    top: 50%;
    left: 50%;
    transform: translate(-50%, -50%);
    width: calc(100vw - 48px);
    height: auto;
    max-height: 90vh;
    border-radius: ${({ theme }) => theme.radii.lg};
    box-shadow: ${({ theme }) => theme.shadows.lg};
    animation-name: ${fadeIn};
  `}
  ${({ $size }) => media.desktop`max-width: ${widths[$size]};`}

  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;

const Header = styled.div`
  display: flex;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space[3]};
  padding: ${({ theme }) => `${theme.space[4]} ${theme.space[4]} ${theme.space[2]}`};
`;

const Titles = styled.div`
  flex: 1;
  min-width: 0;
  padding-top: ${({ theme }) => theme.space[2]};
`;

const Title = styled(RadixDialog.Title)`
  margin: 0;
  &:focus {
    outline: none;
  }
  font-size: ${({ theme }) => theme.fontSizes.xl};
  font-weight: ${({ theme }) => theme.fontWeights.bold};
`;

const Description = styled(RadixDialog.Description)`
  margin: ${({ theme }) => `${theme.space[1]} 0 0`};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const CloseButton = styled.button`
  ${closeButtonStyles}
`;

const Body = styled.div`
  flex: 1;
  overflow-y: auto;
  overscroll-behavior: contain;
  padding: ${({ theme }) => `${theme.space[2]} ${theme.space[4]} ${theme.space[4]}`};
`;

// One layout in every language, set by the screen and never by the words' length: stacked full width with the main
// action (the last) on top on a phone, side by side with it on the right on a desk.
const Footer = styled.div`
  display: flex;
  flex-direction: column-reverse;
  gap: ${({ theme }) => theme.space[2]};
  padding: ${({ theme }) => theme.space[4]};
  padding-bottom: max(${({ theme }) => theme.space[4]}, env(safe-area-inset-bottom));
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  ${media.desktop`flex-direction: row; justify-content: flex-end; & > * { flex: 0 0 auto; }`}
`;

// The fields a dialog opens on: the first one the parent can type in or choose.
const FIELDS = 'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)';

/** Where focus goes when the dialog opens or its `focusKey` changes: `focusTarget`, else the first field, else the title. */
function focusStart(content: HTMLElement | null, focusTarget?: string): void {
  if (!content) return;
  const body = content.querySelector<HTMLElement>('[data-dialog-body]');
  const target =
    (focusTarget ? body?.querySelector<HTMLElement>(focusTarget) : null) ??
    body?.querySelector<HTMLElement>(FIELDS) ??
    content.querySelector<HTMLElement>('[data-dialog-title]');
  target?.focus();
}

/** The Radix implementation behind Dialog, loaded on first open (see ../Dialog.tsx). */
export function DialogImpl({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  hideCloseButton = false,
  onInteractOutside,
  onEscapeKeyDown,
  focusKey,
  focusTarget,
}: DialogProps) {
  const { t } = useCatalog(formsCatalog);
  const contentRef = useRef<HTMLDivElement | null>(null);
  // While open, the page's toasts show in this dialog's dock, above its buttons.
  const withdrawDock = useRef<(() => void) | null>(null);
  const dockRef = useCallback((element: HTMLDivElement | null) => {
    withdrawDock.current?.();
    withdrawDock.current = element ? toastDock.offer(element) : null;
  }, []);
  // A new step of the same dialog (its focusKey) starts where a new dialog would: not on the Close button.
  const shownKey = useRef(focusKey);
  useEffect(() => {
    if (shownKey.current === focusKey) return;
    shownKey.current = focusKey;
    focusStart(contentRef.current, focusTarget);
  }, [focusKey, focusTarget]);
  // Controlled dialogs have no Radix Trigger, so remember what had focus and give it back on close.
  const returnFocusRef = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement && document.activeElement !== document.body) {
      returnFocusRef.current = document.activeElement;
    }
  }, [open]);

  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <Overlay />
        <Content
          ref={contentRef}
          $size={size}
          onOpenAutoFocus={(event) => {
            if (focusKey === undefined && focusTarget === undefined) return;
            event.preventDefault();
            focusStart(contentRef.current, focusTarget);
          }}
          onInteractOutside={onInteractOutside}
          onEscapeKeyDown={onEscapeKeyDown}
          onCloseAutoFocus={(event) => {
            const target = returnFocusRef.current;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
          // Without a description Radix must not point aria-describedby at a missing element.
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Header>
            <Titles>
              <Title data-dialog-title tabIndex={-1}>
                {title}
              </Title>
              {description && <Description>{description}</Description>}
            </Titles>
            {!hideCloseButton && (
              <RadixDialog.Close asChild>
                <CloseButton type="button" aria-label={t('close')}>
                  <CloseIcon />
                </CloseButton>
              </RadixDialog.Close>
            )}
          </Header>
          {children != null && children !== false && <Body data-dialog-body>{children}</Body>}
          <div ref={dockRef} />
          {footer && <Footer>{footer}</Footer>}
        </Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
