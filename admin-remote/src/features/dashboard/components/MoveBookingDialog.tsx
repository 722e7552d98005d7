import { useState } from 'react';
import { Button, useToast } from 'shared-ui';
import { Dialog, Field, Select } from 'shared-ui/forms';
import { BOOKING_LEAD_HOURS, isBookableTime, serverMessage, type StaffBooking } from 'shared-api';
import { ManageMessage } from 'shared-api/manage';
import { useMoveStaffBookingMutation } from '../api/staffBookingsApi';
import { useStaffSlotsQuery } from '../api/staffSlotsApi';
import { formatSlotDate, formatSlotTimeRange, slotSortKey } from '../utils/format';

export const MoveBookingText = {
  open: 'Move booking',
  title: 'Move booking to another slot',
  slot: 'New slot',
  confirm: 'Move booking',
  keep: 'Keep current time',
  none: 'There is no free upcoming slot to move this booking to.',
  consequences: 'The current slot becomes available to parents again. The parent and the school admin are emailed the new time.',
  failed: 'The booking could not be moved. Please try again.',
} as const;

/** Staff move a booking to a free upcoming slot (the same lead time as parents); the server refuses a slot just taken. */
export function MoveBookingDialog({ booking, onClose, onMoved }: { booking: StaffBooking; onClose: () => void; onMoved: () => void }) {
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
    setError(serverMessage(result.error) ?? MoveBookingText.failed);
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={MoveBookingText.title}
      description={MoveBookingText.consequences}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {MoveBookingText.keep}
          </Button>
          <Button variant="primary" onClick={onConfirm} disabled={!slotId} loading={isLoading}>
            {MoveBookingText.confirm}
          </Button>
        </>
      }
    >
      {free.isSuccess && choices.length === 0 ? (
        <p>{MoveBookingText.none}</p>
      ) : (
        <Field label={MoveBookingText.slot} htmlFor="move-booking-slot" error={error ?? undefined}>
          <Select id="move-booking-slot" value={slotId} onChange={(event) => setSlotId(event.target.value)}>
            <option value="">Choose a slot</option>
            {choices.map((slot) => (
              <option key={slot.id} value={String(slot.id)}>
                {`${formatSlotDate(slot.date)} · ${formatSlotTimeRange(slot)}`}
              </option>
            ))}
          </Select>
        </Field>
      )}
    </Dialog>
  );
}
