import { useState } from 'react';
import { Button, styled, useCatalog, useToast } from 'shared-ui';
import { Choice, ChoiceGroup, Dialog, FormAlert } from 'shared-ui/forms';
import { formatRM, httpStatus, serverMessage, type StaffBooking } from 'shared-api';
import { ManageMessage } from 'shared-api/manage';
import { useCancelStaffBookingMutation } from '../api/staffBookingsApi';
import { dashboardCatalog } from '../i18n';
import { formatInstantRange, formatWeekday } from '../../../lib/format';

const Choices = styled(ChoiceGroup)`
  margin-bottom: ${({ theme }) => theme.space[3]};
`;

const Text = styled.p`
  margin: 0 0 ${({ theme }) => theme.space[3]};
`;

type CancelBookingDialogProps = {
  booking: StaffBooking;
  onClose: () => void;
  onCancelled: () => void;
  /** After a refusal that says the booking changed meanwhile (409): read it again. */
  onStale: () => void;
};

/**
 * Staff confirm a cancel, with or without giving the amount paid back. Mounted while open; the caller closes it.
 * On success the booking's new state replaces the shown one and the slot lists refresh (see staffBookingsApi).
 */
export function CancelBookingDialog({ booking, onClose, onCancelled, onStale }: CancelBookingDialogProps) {
  const { t } = useCatalog(dashboardCatalog);
  const toast = useToast();
  const canRefund = booking.amountPaidSen > 0;
  const [refund, setRefund] = useState(canRefund);
  const [error, setError] = useState<string | null>(null);
  const [cancel, { isLoading }] = useCancelStaffBookingMutation();

  const onConfirm = async () => {
    setError(null);
    const result = await cancel({ reference: booking.reference, refund: canRefund && refund });
    if ('error' in result) {
      setError(serverMessage(result.error) ?? t('cancelFailed'));
      if (httpStatus(result.error) === 409) onStale();
      return;
    }
    toast.success(ManageMessage.staffCancelled);
    onCancelled();
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !isLoading) onClose();
      }}
      title={t('cancelTitle')}
      description={t('cancelQuestion', {
        reference: booking.reference,
        name: booking.visitorName,
        date: formatWeekday(booking.start),
        time: formatInstantRange(booking.start, booking.end),
      })}
      size="sm"
      hideCloseButton
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isLoading}>
            {t('cancelKeep')}
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={isLoading}>
            {t('cancelConfirm')}
          </Button>
        </>
      }
    >
      {canRefund && (
        <Choices disabled={isLoading}>
          <legend>{t('refundLegend')}</legend>
          <Choice>
            <input type="radio" name="staff-cancel-refund" checked={refund} onChange={() => setRefund(true)} />
            {t('refundChoice', { amount: formatRM(booking.amountPaidSen) })}
          </Choice>
          <Choice>
            <input type="radio" name="staff-cancel-refund" checked={!refund} onChange={() => setRefund(false)} />
            {t('cancelWithoutRefund')}
          </Choice>
        </Choices>
      )}
      {booking.paymentId === null && <Text>{t('cancelNothingPaid')}</Text>}
      <Text>{t('cancelConsequences')}</Text>
      {error && <FormAlert>{error}</FormAlert>}
    </Dialog>
  );
}
