// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import type { ReactNode } from 'react';
import { Button, ErrorPanel, lazyModule, styled, useCatalog } from 'shared-ui';
import { formsCatalog } from './i18n';

export type DialogSize = 'sm' | 'md' | 'lg';

export type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Shown as the heading and used as the dialog's accessible name. */
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  /** Actions pinned below the scrolling body (e.g. Cancel / Confirm). */
  footer?: ReactNode;
  size?: DialogSize;
  /** Hides the top-right close button (Escape and the footer still close). */
  hideCloseButton?: boolean;
  /** Called when the dialog is about to close on an outside click; preventDefault() keeps it open. */
  onInteractOutside?: (event: Event) => void;
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  /**
   * Focus on opening (and again whenever `focusKey` changes, e.g. a dialog's next step): the element `focusTarget` names
   * (a selector inside the body), else the body's first field, else the title; never the Close button.
   */
  focusKey?: string | number;
  focusTarget?: string;
};

const dialogCode = lazyModule(() => import(/* webpackChunkName: "shared-ui-dialog" */ './DialogImpl'));

/** Fetches the dialog code ahead of the first open (e.g. when the slot list has rendered). Never rejects. */
export const preloadDialog = (): Promise<void> =>
  dialogCode.preload().then(
    () => undefined,
    () => undefined,
  );

const LoadFailed = styled.div`
  position: fixed;
  inset: auto 0 0 0;
  z-index: ${({ theme }) => theme.zIndices.dialog};
  padding: ${({ theme }) => theme.space[4]};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadows.lg};
`;

/**
 * A modal dialog on Radix: named by its title, focus trapped inside and returned on close, Escape closes,
 * full screen on phones and a centred card on desktop. Radix's code is loaded on first open.
 */
export function Dialog(props: DialogProps) {
  const { module, failed, retry } = dialogCode.useModule(props.open);
  if (module) return <module.DialogImpl {...props} />;
  if (props.open && failed) return <DialogLoadFailed {...props} retry={retry} />;
  return null;
}

/** The dialog's code could not be fetched: say so, with Retry and Close. */
function DialogLoadFailed({ title, onOpenChange, retry }: DialogProps & { retry: () => void }) {
  const { t } = useCatalog(formsCatalog);
  return (
    <LoadFailed>
      <ErrorPanel title={title} message={t('loadFailed')} onRetry={retry} />
      <Button variant="ghost" size="sm" onClick={() => onOpenChange(false)}>
        {t('close')}
      </Button>
    </LoadFailed>
  );
}
