import { useState } from 'react';
import { Button, Inline } from 'shared-ui';
import { Field, Input } from 'shared-ui/forms';
import { inMY, todayInMY, ValidationMessage, type StaffSlot } from 'shared-api';
import { bookedSlotsCsv, bookedSlotsInRange } from '../utils/csv';

export const NO_BOOKINGS_IN_RANGE = 'No booked slots in this date range.';

/** Hands the CSV to the browser as a file download (UTF-8 with a BOM so spreadsheets read names correctly). */
export function downloadCsv(filename: string, csv: string): void {
  const blob = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** Export of the booked slots of a date range (GMT+8 days, inclusive). */
export function ExportBookingsCsv({ slots }: { slots: StaffSlot[] }) {
  const [from, setFrom] = useState(() => todayInMY());
  const [to, setTo] = useState(() => inMY().add(30, 'day').format('YYYY-MM-DD'));
  const [message, setMessage] = useState<string | null>(null);

  const rangeError = !from
    ? ValidationMessage.startDateRequired
    : !to
      ? ValidationMessage.endDateRequired
      : to < from
        ? ValidationMessage.endBeforeStart
        : null;

  const onExport = () => {
    if (rangeError) return;
    const count = bookedSlotsInRange(slots, from, to).length;
    if (count === 0) {
      setMessage(NO_BOOKINGS_IN_RANGE);
      return;
    }
    downloadCsv(`bookings-${from}-to-${to}.csv`, bookedSlotsCsv(slots, from, to));
    setMessage(`Exported ${count} booking(s).`);
  };

  return (
    <section aria-labelledby="export-heading">
      <h3 id="export-heading" style={{ margin: '0 0 0.5rem', fontSize: '1rem' }}>
        Export bookings (CSV)
      </h3>
      <Inline>
        <Field label="From" htmlFor="export-from">
          <Input id="export-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </Field>
        <Field label="To" htmlFor="export-to" error={rangeError ?? undefined}>
          <Input
            id="export-to"
            type="date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        </Field>
        <Button size="sm" variant="secondary" onClick={onExport} disabled={rangeError !== null}>
          Export CSV
        </Button>
      </Inline>
      <p role="status" style={{ margin: '0.5rem 0 0' }}>
        {message}
      </p>
    </section>
  );
}
