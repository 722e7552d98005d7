import { useState } from 'react';
import { Button, useCatalog, useToast } from 'shared-ui';
import { Dialog, SelectField } from 'shared-ui/forms';
import { BOOKING_LEAD_HOURS, isBookableTime, serverMessage, type StaffBooking } from 'shared-api';
import { ManageMessage } from 'shared-api/manage';
import { useMoveStaffBookingMutation } from '../api/staffBookingsApi';
import { useStaffSlotsQuery } from '../api/staffSlotsApi';
import { dashboardCatalog } from '../i18n';
import { formatWeekday } from '../../../lib/format';
import { formatSlotTimeRange, slotSortKey } from '../utils/format';

/** Staff move a booking to a free upcoming slot (the same lead time as parents); the server refuses a slot just taken. */
export function MoveBookingDialog({ booking, onClose, onMoved }: { booking: StaffBooking; onClose: () => void; onMoved: () => void }) {
  const { t } = useCatalog(dashboardCatalog);
  const free = useStaffSlotsQuery({ isBooked: false });
  const [move, { isLoading }] = useMoveStaffBookingMutation();
  const [slotId, setSlotId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const now = Date.now();
  const choices = (free.data?.rows ?? [])
    .filter((slot) => isBookableTime(slot.date, slot.startTime, now, BOOKING_LEAD_HOURS))
    .sort((a, b) => slotSortKey(a).localeCompare(slotSortKey(b)));

  const onConfirm = async () => {
    if (!slotId) return;
    setError(null);
    const result = await move({ reference: booking.reference, slotId: Number(slotId) });
    if ('data' in result && result.data) {
      toast.success(ManageMessage.staffMoved);
      onMoved();
      return;
    }
    setError(serverMessage(result.error) ?? t('moveFailed'));
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('moveTitle')}
      description={t('moveConsequences')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('moveKeep')}
          </Button>
          <Button variant="primary" onClick={onConfirm} disabled={!slotId} loading={isLoading}>
            {t('moveConfirm')}
          </Button>
        </>
      }
    >
      {free.isSuccess && choices.length === 0 ? (
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
      )}
    </Dialog>
  );
}
