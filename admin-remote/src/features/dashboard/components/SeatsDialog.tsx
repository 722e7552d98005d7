import { useEffect, useState } from 'react';
import { Button, useCatalog, useToast } from 'shared-ui';
import { Dialog, FormAlert, SelectField } from 'shared-ui/forms';
import { httpStatus, serverMessage, SLOT_MAX_SEATS, type StaffSlot } from 'shared-api';
import { useSetSlotSeatsMutation } from '../api/staffSlotsApi';
import { dashboardCatalog } from '../i18n';
import { formatWeekday } from '../../../lib/format';
import { formatSlotTimeRange } from '../utils/format';

const SEAT_CHOICES = Array.from({ length: SLOT_MAX_SEATS }, (_, index) => index + 1);

/** Children at a time for a slot's time (issue 37): the server refuses fewer than are booked or paying, in its words. */
export function SeatsDialog({ slot, onClose }: { slot: StaffSlot | null; onClose: () => void }) {
  const { t } = useCatalog(dashboardCatalog);
  const toast = useToast();
  const [setSeats, { isLoading }] = useSetSlotSeatsMutation();
  const [seats, setChosen] = useState('1');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setChosen(String(slot?.seats ?? 1));
    setError(null);
  }, [slot]);

  const when = slot ? { date: formatWeekday(slot.date), time: formatSlotTimeRange(slot) } : { date: '', time: '' };
  const save = async () => {
    if (!slot) return;
    setError(null);
    const result = await setSeats({ slotId: slot.id, seats: Number(seats) });
    if ('data' in result && result.data) {
      toast.success(t('seatsSaved', { ...when, count: result.data.seats }));
      onClose();
      return;
    }
    setError((httpStatus(result.error) === 409 ? serverMessage(result.error) : undefined) ?? t('seatsFailed'));
  };

  return (
    <Dialog
      open={slot !== null}
      onOpenChange={(open) => {
        if (!open && !isLoading) onClose();
      }}
      title={t('seatsTitle')}
      description={t('seatsMessage', when)}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isLoading}>
            {t('seatsCancel')}
          </Button>
          <Button variant="primary" onClick={save} loading={isLoading}>
            {t('seatsSave')}
          </Button>
        </>
      }
    >
      <SelectField label={t('seatsLabel')} id="slot-seats" value={seats} onChange={(event) => setChosen(event.target.value)}>
        {SEAT_CHOICES.map((count) => (
          <option key={count} value={String(count)}>
            {count}
          </option>
        ))}
      </SelectField>
      {error && <FormAlert>{error}</FormAlert>}
    </Dialog>
  );
}
