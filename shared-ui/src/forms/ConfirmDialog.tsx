// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import type { ReactNode } from 'react';
import { Button, useCatalog } from 'shared-ui';
import { Dialog } from './Dialog';
import { formsCatalog } from './i18n';

export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  /** While the confirmed work runs: the confirm button spins and the dialog cannot be dismissed. */
  busy?: boolean;
  /** 'danger' (default) for destructive actions such as Delete. */
  tone?: 'danger' | 'primary';
};

/** A small yes/no dialog; the caller closes it (onOpenChange(false)) when the confirmed work is done. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  confirmLabel,
  cancelLabel,
  onConfirm,
  busy = false,
  tone = 'danger',
}: ConfirmDialogProps) {
  const { t } = useCatalog(formsCatalog);
  const requestChange = (next: boolean) => {
    if (!busy) onOpenChange(next);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={requestChange}
      title={title}
      description={message}
      size="sm"
      hideCloseButton
      footer={
        <>
          <Button variant="secondary" onClick={() => requestChange(false)} disabled={busy}>
            {cancelLabel ?? t('cancel')}
          </Button>
          <Button variant={tone} onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}
