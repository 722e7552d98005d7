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

/** The children of a booking of several still booked (none for a booking of one child). */
export const stillBooked = (booking: StaffBooking | undefined) => booking?.children?.filter((child) => !child.cancelled) ?? [];

type CancelBookingStepOptions = {
  booking: StaffBooking | undefined;
  /** The step is shown: a new visit starts with the refund offered again and no refusal. */
  active: boolean;
  onBack: () => void;
  /** `childName`: only that child was cancelled, the others staying booked. */
  onCancelled: (childName?: string) => void;
  /** After a refusal that says the booking changed meanwhile (409): read it again. */
  onStale: () => void;
  /** A booking of several children (issue 37): the position of the one child to cancel, the others staying booked; null: the whole booking. */
  childPosition?: number | null;
};

/**
 * The Cancel step of Appointment Details: staff confirm a cancel, with or without giving the amount paid back; of a
 * booking of several children, the whole booking or one child ("Cancel this child", with that child's share or none).
 * On success the booking's new state replaces the shown one and the slot lists refresh (see staffBookingsApi).
 */
export function useCancelBookingStep({ booking, active, onBack, onCancelled, onStale, childPosition = null }: CancelBookingStepOptions): DetailsStep {
  const { t } = useCatalog(dashboardCatalog);
  const toast = useToast();
  // A booking of several children (issue 37): one child alone only while another stays booked (the last one is the whole booking).
  const left = stillBooked(booking);
  const child = left.length > 1 ? left.find((c) => c.position === childPosition) : undefined;
  // What a refund gives back: that child's share, the shares of the children still booked, or the whole payment.
  const amount = child ? child.amountSen : (booking?.children ? left.reduce((sum, c) => sum + c.amountSen, 0) : booking?.amountPaidSen) ?? 0;
  const canRefund = amount > 0;
  const [refund, setRefund] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [cancel, { isLoading }] = useCancelStaffBookingMutation();
  useEffect(() => {
    if (active) return;
    setRefund(true);
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
    toast.success(child ? t('childCancelledToast', { name: child.childName }) : ManageMessage.staffCancelled);
    onCancelled(child?.childName);
  };

  const when = booking ? { reference: booking.reference, date: formatWeekday(booking.start), time: formatInstantRange(booking.start, booking.end) } : null;
  return {
    title: child ? t('cancelChildTitle') : t('cancelTitle'),
    description: when
      ? child
        ? t('cancelChildQuestion', { ...when, name: child.childName, year: child.childYear, school: child.selectedSchool })
        : t('cancelQuestion', { ...when, name: booking!.visitorName })
      : undefined,
    busy: isLoading,
    body: (
      <>
        {!child && left.length > 1 && <Text>{t('cancelEveryChild', { names: left.map((c) => c.childName).join(', ') })}</Text>}
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
        <Text>{child ? t('cancelChildConsequences', { name: child.childName }) : t('cancelConsequences')}</Text>
        {error && <FormAlert>{error}</FormAlert>}
      </>
    ),
    footer: (
      <>
        <Button variant="secondary" onClick={onBack} disabled={isLoading}>
          {child ? t('cancelChildKeep') : t('cancelKeep')}
        </Button>
        <Button variant="danger" onClick={onConfirm} loading={isLoading}>
          {child ? t('cancelChildConfirm') : t('cancelConfirm')}
        </Button>
      </>
    ),
  };
}
