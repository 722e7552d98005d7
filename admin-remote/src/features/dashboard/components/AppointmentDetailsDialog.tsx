import { useEffect, useRef, useState } from 'react';
import { Button, ErrorPanel, media, styled, useCatalog, type DefaultTheme } from 'shared-ui';
import { Dialog } from 'shared-ui/forms';
import { formatRM, httpStatus, serverMessage, type StaffBooking, type StaffSlot } from 'shared-api';
import { useStaffBookingQuery } from '../api/staffBookingsApi';
import { dashboardCatalog, type DashboardTranslate } from '../i18n';
import { formatWeekday } from '../../../lib/format';
import { formatContactNumber, formatSlotTimeRange } from '../utils/format';
import { bookingStateLabel, refundText } from '../utils/history';
import { BookingHistory } from './BookingHistory';
import { CancelBookingDialog } from './CancelBookingDialog';
import { MoveBookingDialog } from './MoveBookingDialog';
import { CopyButton } from './CopyButton';

/* Phones: each label above its value. Desktop: labels in a column beside the values. */
const List = styled.dl`
  display: grid;
  grid-template-columns: 1fr;
  gap: ${({ theme }) => theme.space[1]};
  margin: 0;
  dt {
    font-weight: ${({ theme }) => theme.fontWeights.bold};
    margin-top: ${({ theme }) => theme.space[2]};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ${media.desktop`
    grid-template-columns: minmax(8rem, max-content) 1fr;
    align-items: center;
    column-gap: ${({ theme }: { theme: DefaultTheme }) => theme.space[4]};
    dt { margin-top: 0; }
  `}
`;

const Hint = styled.p`
  margin: ${({ theme }) => `${theme.space[1]} 0 0`};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Loading = styled.p`
  margin: ${({ theme }) => `${theme.space[4]} 0 0`};
`;

/** `copy` is the text the copy button puts on the clipboard (the raw number for a phone). */
type Row = { key: string; label: string; value: string; copy?: string | null };

/** The booking's status and refund, as rows of the details list. */
const bookingRows = (booking: StaffBooking, t: DashboardTranslate): Row[] => {
  const refund = refundText(booking.state, booking.refund);
  return [
    { key: 'status', label: t('rowStatus'), value: bookingStateLabel(booking.state) },
    ...(refund ? [{ key: 'refund', label: t('rowRefund'), value: refund }] : []),
  ];
};

/**
 * Visitor details of a booked slot, the booking's status, refund and history (from GET /staff/bookings/:reference),
 * and Cancel booking while it is booked. Every value is rendered as text, never as markup.
 */
export function AppointmentDetailsDialog({ slot, onClose }: { slot: StaffSlot | null; onClose: () => void }) {
  const { t } = useCatalog(dashboardCatalog);
  const reference = slot?.bookingReference ?? null;
  // `skip`, not RTK's skipToken: importing @reduxjs/toolkit here would bundle a second copy of it into admin-remote.
  const record = useStaffBookingQuery(reference ?? '', { skip: !reference });
  const booking = record.currentData;
  // At most one change of the booking is open over the details: its move or its cancel.
  const [change, setChange] = useState<'move' | 'cancel' | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const statusRef = useRef<HTMLElement>(null);

  // The Cancel booking button that opened the confirm is gone once the booking is cancelled: focus its new status
  // instead of leaving focus on the page's body (queued after the closing confirm's own focus return).
  useEffect(() => {
    if (!cancelled) return;
    const timer = setTimeout(() => statusRef.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [cancelled]);

  const rows: Row[] = slot
    ? [
        {
          key: 'slot',
          label: t('rowSlot'),
          value: t('rowSlotValue', {
            id: slot.id,
            date: formatWeekday(slot.date),
            time: formatSlotTimeRange(slot),
          }),
        },
        {
          key: 'name',
          label: t('rowVisitorName'),
          value: slot.visitorName ?? t('notProvided'),
          copy: slot.visitorName,
        },
        {
          key: 'email',
          label: t('rowEmail'),
          value: slot.visitorEmail ?? t('notProvided'),
          copy: slot.visitorEmail,
        },
        {
          key: 'contact',
          label: t('rowContactNumber'),
          value: formatContactNumber(slot.visitorContactNo),
          copy: slot.visitorContactNo?.trim() || null,
        },
        { key: 'school', label: t('rowSchool'), value: slot.selectedSchool ?? t('notProvided') },
        {
          key: 'child',
          label: t('rowChildName'),
          value: slot.childName ?? t('notProvided'),
          copy: slot.childName,
        },
        { key: 'childYear', label: t('rowChildYear'), value: slot.childYear ?? t('notProvided') },
        {
          key: 'reference',
          label: t('rowPaymentReference'),
          value: slot.bookingReference ?? t('notProvided'),
          copy: slot.bookingReference,
        },
        {
          key: 'amount',
          label: t('rowAmount'),
          // Staff's direct bookings (and the demo data) carry the fee but no payment.
          value: booking?.paymentId === null ? t('notPaid') : slot.amountSen === null ? t('notProvided') : formatRM(slot.amountSen),
        },
        ...(booking ? bookingRows(booking, t) : []),
      ]
    : [];

  return (
    <>
      <Dialog
        open={slot !== null}
        onOpenChange={(open) => {
          if (open) return;
          setChange(null);
          setCancelled(false);
          onClose();
        }}
        title={t('detailsTitle')}
        description={t('detailsDescription')}
        footer={
          booking?.state === 'booked' ? (
            <>
              <Button variant="secondary" onClick={() => setChange('move')}>
                {t('moveOpen')}
              </Button>
              <Button variant="danger" onClick={() => setChange('cancel')}>
                {t('cancelBooking')}
              </Button>
            </>
          ) : undefined
        }
      >
        <List>
          {rows.map((row) => (
            <div key={row.key} style={{ display: 'contents' }}>
              <dt>{row.label}</dt>
              <dd {...(row.key === 'status' ? { ref: statusRef, tabIndex: -1 } : {})}>
                {row.value}
                {row.copy ? <CopyButton value={row.copy} label={row.label} /> : null}
                {row.key === 'refund' && booking?.refund?.state === 'failing' ? <Hint>{t('refundFailingHint')}</Hint> : null}
              </dd>
            </div>
          ))}
        </List>
        {reference && record.isError && httpStatus(record.error) === 404 ? (
          <Hint>{t('bookingGone')}</Hint>
        ) : reference && record.isError ? (
          <ErrorPanel
            title={t('historyLoadFailedTitle')}
            message={serverMessage(record.error) ?? t('historyLoadFailed')}
            onRetry={record.refetch}
            retryLabel={t('retry')}
          />
        ) : booking ? (
          <BookingHistory events={booking.history} />
        ) : reference ? (
          <Loading role="status">{t('historyLoading')}</Loading>
        ) : null}
      </Dialog>
      {change === 'move' && booking && (
        <MoveBookingDialog
          booking={booking}
          onClose={() => setChange(null)}
          // The details shown are the old slot's: close them; the refreshed list shows the booking at its new time.
          onMoved={() => {
            setChange(null);
            onClose();
          }}
        />
      )}
      {change === 'cancel' && booking && (
        <CancelBookingDialog
          booking={booking}
          onClose={() => setChange(null)}
          onCancelled={() => {
            setChange(null);
            setCancelled(true);
          }}
          onStale={record.refetch}
        />
      )}
    </>
  );
}
