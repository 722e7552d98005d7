import { useEffect, useState } from 'react';
import { Button, useCatalog, useToast } from 'shared-ui';
import { SelectField } from 'shared-ui/forms';
import { BOOKING_LEAD_HOURS, isBookableTime, serverMessage, type StaffBooking, type StaffSlot } from 'shared-api';
import { ManageMessage } from 'shared-api/manage';
import { useMoveStaffBookingMutation } from '../api/staffBookingsApi';
import { useStaffSlotsQuery } from '../api/staffSlotsApi';
import { dashboardCatalog } from '../i18n';
import { formatWeekday } from '../../../lib/format';
import { formatSlotTimeRange, slotSortKey } from '../utils/format';
import type { DetailsStep } from './DetailsStep';
import { stillBooked } from './CancelBookingStep';

type MoveBookingStepOptions = {
  booking: StaffBooking | undefined;
  /** The step is shown: the free slots are read only then, and a new visit starts with nothing chosen. */
  active: boolean;
  onBack: () => void;
  /** `childName`: only that child was moved, the others staying at their time. */
  onMoved: (slot: StaffSlot, childName?: string) => void;
  /** A booking of several children (issue 37): the position of the one child to move, the others staying; null: the whole booking. */
  childPosition?: number | null;
};

/**
 * The Move step of Appointment Details: staff move a booking (or one child of several, "Move this child") to a free
 * upcoming slot (the same lead time as parents); the server refuses a slot just taken, and its words show under the choice.
 */
export function useMoveBookingStep({ booking, active, onBack, onMoved, childPosition = null }: MoveBookingStepOptions): DetailsStep {
  const { t } = useCatalog(dashboardCatalog);
  // One child alone only while another stays booked (the last one is the whole booking).
  const left = stillBooked(booking);
  const child = left.length > 1 ? left.find((c) => c.position === childPosition) : undefined;
  const free = useStaffSlotsQuery({ isBooked: false }, { skip: !active });
  const [move, { isLoading }] = useMoveStaffBookingMutation();
  const [slotId, setSlotId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  useEffect(() => {
    if (active) return;
    setSlotId('');
    setError(null);
  }, [active]);

  const now = Date.now();
  const choices = (free.data?.rows ?? [])
    .filter((slot) => isBookableTime(slot.date, slot.startTime, now, BOOKING_LEAD_HOURS))
    .sort((a, b) => slotSortKey(a).localeCompare(slotSortKey(b)) || a.id - b.id)
    // A time with several free seats is one choice (its first seat; the server takes another if that one goes).
    .filter((slot, index, sorted) => index === 0 || slotSortKey(sorted[index - 1]) !== slotSortKey(slot));
  const chosen = choices.find((slot) => String(slot.id) === slotId);

  const onConfirm = async () => {
    if (!booking || !chosen) return;
    setError(null);
    const result = await move({ reference: booking.reference, slotId: chosen.id, ...(child && { child: child.position }) });
    if ('data' in result && result.data) {
      toast.success(child ? t('childMovedToast', { name: child.childName }) : ManageMessage.staffMoved);
      onMoved(chosen, child?.childName);
      return;
    }
    setError(serverMessage(result.error) ?? t('moveFailed'));
  };

  return {
    title: child ? t('moveChildTitle', { name: child.childName }) : t('moveTitle'),
    description: child ? t('moveChildConsequences', { name: child.childName }) : t('moveConsequences'),
    busy: isLoading,
    body:
      free.isSuccess && choices.length === 0 ? (
        <p>{t('moveNone')}</p>
      ) : (
        <SelectField label={t('moveSlot')} id="move-booking-slot" error={error ?? undefined} value={slotId} onChange={(event) => setSlotId(event.target.value)}>
          <option value="">{t('moveChoose')}</option>
          {choices.map((slot) => (
            <option key={slot.id} value={String(slot.id)}>
              {t('moveOption', { date: formatWeekday(slot.date), time: formatSlotTimeRange(slot) })}
            </option>
          ))}
        </SelectField>
      ),
    footer: (
      <>
        <Button variant="secondary" onClick={onBack} disabled={isLoading}>
          {t('moveKeep')}
        </Button>
        <Button variant="primary" onClick={onConfirm} disabled={!chosen} loading={isLoading}>
          {t('moveConfirm')}
        </Button>
      </>
    ),
  };
}
