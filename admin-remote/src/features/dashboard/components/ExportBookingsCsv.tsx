import { useState } from 'react';
import { Button, Inline, useCatalog } from 'shared-ui';
import { InputField } from 'shared-ui/forms';
import { serverMessage, todayInMY } from 'shared-api';
import { inMY } from 'shared-api/time';
import { ValidationMessage } from 'shared-api/messages';
import { useLazyStaffBookingsQuery, useLazyVisitAttendanceQuery } from '../api/staffBookingsApi';
import { marksOf } from '../utils/attendance';
import { attendanceRange } from '../hooks/useAttendanceMarks';
import { dashboardCatalog } from '../i18n';
import { bookingsCsv, bookingsInRange } from '../utils/csv';
import { downloadCsv } from '../../../lib/csv';

/**
 * Export of the paid bookings of a date range (GMT+8 days, inclusive), cancelled ones too, with their status and refund.
 * The bookings are read from the server at each export: a cancelled booking has freed its slot, so the slot list lacks it.
 */
export function ExportBookingsCsv() {
  const { t } = useCatalog(dashboardCatalog);
  const [from, setFrom] = useState(() => todayInMY());
  const [to, setTo] = useState(() => inMY().add(30, 'day').format('YYYY-MM-DD'));
  const [message, setMessage] = useState<string | null>(null);
  const [loadBookings, { isFetching }] = useLazyStaffBookingsQuery();
  const [loadMarks] = useLazyVisitAttendanceQuery();

  const rangeError = !from
    ? ValidationMessage.startDateRequired
    : !to
      ? ValidationMessage.endDateRequired
      : to < from
        ? ValidationMessage.endBeforeStart
        : null;

  const onExport = async () => {
    if (rangeError) return;
    setMessage(null);
    // Issue 40: the range's Arrived / No-show marks (none can be set before a visit's day).
    const range = attendanceRange(from, to);
    const [result, marks] = await Promise.all([loadBookings(), range ? loadMarks(range) : Promise.resolve({ data: [], error: undefined })]);
    if (result.error || !result.data || marks.error) {
      setMessage(serverMessage(result.error) ?? t('exportFailed'));
      return;
    }
    const count = bookingsInRange(result.data, from, to).length;
    if (count === 0) {
      setMessage(t('exportNone'));
      return;
    }
    downloadCsv(`bookings-${from}-to-${to}.csv`, bookingsCsv(result.data, from, to, marksOf(marks.data)));
    setMessage(t('exported', { count }));
  };

  return (
    <section aria-labelledby="export-heading">
      <h3 id="export-heading" style={{ margin: '0 0 0.5rem', fontSize: '1rem' }}>
        {t('exportTitle')}
      </h3>
      <Inline>
        <InputField label={t('exportFrom')} id="export-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        <InputField label={t('exportTo')} id="export-to" error={rangeError ?? undefined} type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        <Button size="sm" variant="secondary" onClick={onExport} disabled={rangeError !== null} loading={isFetching}>
          {t('exportButton')}
        </Button>
      </Inline>
      <p role="status" style={{ margin: '0.5rem 0 0' }}>
        {message}
      </p>
    </section>
  );
}
