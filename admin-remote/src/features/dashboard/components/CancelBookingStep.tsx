import { useEffect, useState } from 'react';
import { Button, styled, useCatalog, useToast } from 'shared-ui';
import { Choice, ChoiceGroup, FormAlert } from 'shared-ui/forms';
import { formatRM, httpStatus, serverMessage, type StaffBooking } from 'shared-api';
import { ManageMessage } from 'shared-api/manage';
import { useCancelStaffBookingMutation } from '../api/staffBookingsApi';
import { dashboardCatalog } from '../i18n';
import { formatInstantRange, formatWeekday } from '../../../lib/format';
import type { DetailsStep } from './DetailsStep';

const Choices = styled(ChoiceGroup)`
  margin-bottom: ${({ theme }) => theme.space[3]};
`;

const Text = styled.p`
  margin: 0 0 ${({ theme }) => theme.space[3]};
`;

type CancelBookingStepOptions = {
  booking: StaffBooking | undefined;
  /** The step is shown: a new visit starts with the refund offered again and no refusal. */
  active: boolean;
  onBack: () => void;
  onCancelled: () => void;
  /** After a refusal that says the booking changed meanwhile (409): read it again. */
  onStale: () => void;
};

/**
 * The Cancel step of Appointment Details: staff confirm a cancel, with or without giving the amount paid back.
 * On success the booking's new state replaces the shown one and the slot lists refresh (see staffBookingsApi).
 */
export function useCancelBookingStep({ booking, active, onBack, onCancelled, onStale }: CancelBookingStepOptions): DetailsStep {
  const { t } = useCatalog(dashboardCatalog);
  const toast = useToast();
  // A booking of several children (issue 37): the whole booking, or one child while another stays booked.
  const left = booking?.children?.filter((child) => !child.cancelled) ?? [];
  const [only, setOnly] = useState<number | null>(null);
  const child = left.length > 1 ? left.find((c) => c.position === only) : undefined;
  const amount = child ? child.amountSen : (booking?.children ? left.reduce((sum, c) => sum + c.amountSen, 0) : booking?.amountPaidSen) ?? 0;
  const canRefund = amount > 0;
  const [refund, setRefund] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [cancel, { isLoading }] = useCancelStaffBookingMutation();
  useEffect(() => {
    if (active) return;
    setRefund(true);
    setOnly(null);
    setError(null);
  }, [active]);

  const onConfirm = async () => {
    if (!booking) return;
    setError(null);
    const result = await cancel({ reference: booking.reference, refund: canRefund && refund, ...(child && { child: child.position }) });
    if ('error' in result) {
      setError(serverMessage(result.error) ?? t('cancelFailed'));
      if (httpStatus(result.error) === 409) onStale();
      return;
    }
    toast.success(ManageMessage.staffCancelled);
    onCancelled();
  };

  return {
    title: t('cancelTitle'),
    description: booking
      ? t('cancelQuestion', {
          reference: booking.reference,
          name: booking.visitorName,
          date: formatWeekday(booking.start),
          time: formatInstantRange(booking.start, booking.end),
        })
      : undefined,
    busy: isLoading,
    body: (
      <>
        {left.length > 1 && (
          <Choices disabled={isLoading}>
            <legend>{t('cancelWhoLegend')}</legend>
            <Choice>
              <input type="radio" name="staff-cancel-who" checked={only === null} onChange={() => setOnly(null)} />
              {t('cancelWholeBooking')}
            </Choice>
            {left.map((c) => (
              <Choice key={c.position}>
                <input type="radio" name="staff-cancel-who" checked={only === c.position} onChange={() => setOnly(c.position)} />
                {t('cancelOnlyChild', { name: c.childName })}
              </Choice>
            ))}
          </Choices>
        )}
        {canRefund && booking && (
          <Choices disabled={isLoading}>
            <legend>{t('refundLegend')}</legend>
            <Choice>
              <input type="radio" name="staff-cancel-refund" checked={refund} onChange={() => setRefund(true)} />
              {t('refundChoice', { amount: formatRM(amount) })}
            </Choice>
            <Choice>
              <input type="radio" name="staff-cancel-refund" checked={!refund} onChange={() => setRefund(false)} />
              {t('cancelWithoutRefund')}
            </Choice>
          </Choices>
        )}
        {booking?.paymentId === null && <Text>{t('cancelNothingPaid')}</Text>}
        <Text>{t('cancelConsequences')}</Text>
        {error && <FormAlert>{error}</FormAlert>}
      </>
    ),
    footer: (
      <>
        <Button variant="secondary" onClick={onBack} disabled={isLoading}>
          {t('cancelKeep')}
        </Button>
        <Button variant="danger" onClick={onConfirm} loading={isLoading}>
          {t('cancelConfirm')}
        </Button>
      </>
    ),
  };
}
