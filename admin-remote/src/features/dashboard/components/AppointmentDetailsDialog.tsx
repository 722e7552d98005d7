import { useEffect, useRef, useState } from 'react';
import { Button, ErrorPanel, media, styled, type DefaultTheme } from 'shared-ui';
import { Dialog } from 'shared-ui/forms';
import { formatRM, httpStatus, serverMessage, type StaffBooking, type StaffSlot } from 'shared-api';
import { useStaffBookingQuery } from '../api/staffBookingsApi';
import { NOT_PROVIDED, formatContactNumber, formatSlotDate, formatSlotTimeRange } from '../utils/format';
import { BookingStateLabel, refundText } from '../utils/history';
import { BookingHistory } from './BookingHistory';
import { CancelBookingDialog } from './CancelBookingDialog';
import { MoveBookingDialog, MoveBookingText } from './MoveBookingDialog';
import { CopyButton } from './CopyButton';

export const AppointmentDetailsText = {
  loading: "Loading the booking's history...",
  loadFailedTitle: "Could not load the booking's history",
  loadFailed: 'Please try again.',
  /** 404: a booked slot without a paid booking behind it (the demo data's bookings, made without paying). */
  noPayment: 'This booking has no payment record, so it has no history and cannot be cancelled here.',
  cancel: 'Cancel booking',
  refundFailing: 'The refund is retried automatically and shows under the alerts until it goes through.',
} as const;

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
type Row = { label: string; value: string; copy?: string | null };

/** The booking's status and refund, as rows of the details list. */
const bookingRows = (booking: StaffBooking): Row[] => {
  const refund = refundText(booking.state, booking.refund);
  return [{ label: 'Status', value: BookingStateLabel[booking.state] }, ...(refund ? [{ label: 'Refund', value: refund }] : [])];
};

/**
 * Visitor details of a booked slot, the booking's status, refund and history (from GET /staff/bookings/:reference),
 * and Cancel booking while it is booked. Every value is rendered as text, never as markup.
 */
export function AppointmentDetailsDialog({ slot, onClose }: { slot: StaffSlot | null; onClose: () => void }) {
  const reference = slot?.bookingReference ?? null;
  // `skip`, not RTK's skipToken: importing @reduxjs/toolkit here would bundle a second copy of it into admin-remote.
  const record = useStaffBookingQuery(reference ?? '', { skip: !reference });
  const booking = record.currentData;
  const [confirming, setConfirming] = useState(false);
  const [moving, setMoving] = useState(false);
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
        { label: 'Slot', value: `#${slot.id} · ${formatSlotDate(slot.date)} · ${formatSlotTimeRange(slot)}` },
        { label: 'Visitor name', value: slot.visitorName ?? NOT_PROVIDED, copy: slot.visitorName },
        { label: 'Email', value: slot.visitorEmail ?? NOT_PROVIDED, copy: slot.visitorEmail },
        {
          label: 'Contact number',
          value: formatContactNumber(slot.visitorContactNo),
          copy: slot.visitorContactNo?.trim() || null,
        },
        { label: 'School', value: slot.selectedSchool ?? NOT_PROVIDED },
        { label: 'Payment reference', value: slot.bookingReference ?? NOT_PROVIDED, copy: slot.bookingReference },
        { label: 'Amount', value: slot.amountSen === null ? NOT_PROVIDED : formatRM(slot.amountSen) },
        ...(booking ? bookingRows(booking) : []),
      ]
    : [];

  return (
    <>
      <Dialog
        open={slot !== null}
        onOpenChange={(open) => {
          if (open) return;
          setConfirming(false);
          setMoving(false);
          setCancelled(false);
          onClose();
        }}
        title="Appointment Details"
        description="The visitor's details for this booked slot."
        footer={
          booking?.state === 'booked' ? (
            <>
              <Button variant="secondary" onClick={() => setMoving(true)}>
                {MoveBookingText.open}
              </Button>
              <Button variant="danger" onClick={() => setConfirming(true)}>
                {AppointmentDetailsText.cancel}
              </Button>
            </>
          ) : undefined
        }
      >
        <List>
          {rows.map((row) => (
            <div key={row.label} style={{ display: 'contents' }}>
              <dt>{row.label}</dt>
              <dd {...(row.label === 'Status' ? { ref: statusRef, tabIndex: -1 } : {})}>
                {row.value}
                {row.copy ? <CopyButton value={row.copy} label={row.label} /> : null}
                {row.label === 'Refund' && booking?.refund?.state === 'failing' ? <Hint>{AppointmentDetailsText.refundFailing}</Hint> : null}
              </dd>
            </div>
          ))}
        </List>
        {reference && record.isError && httpStatus(record.error) === 404 ? (
          <Hint>{AppointmentDetailsText.noPayment}</Hint>
        ) : reference && record.isError ? (
          <ErrorPanel
            title={AppointmentDetailsText.loadFailedTitle}
            message={serverMessage(record.error) ?? AppointmentDetailsText.loadFailed}
            onRetry={record.refetch}
            retryLabel="Retry"
          />
        ) : booking ? (
          <BookingHistory events={booking.history} />
        ) : reference ? (
          <Loading role="status">{AppointmentDetailsText.loading}</Loading>
        ) : null}
      </Dialog>
      {moving && booking && (
        <MoveBookingDialog
          booking={booking}
          onClose={() => setMoving(false)}
          // The details shown are the old slot's: close them; the refreshed list shows the booking at its new time.
          onMoved={() => {
            setMoving(false);
            onClose();
          }}
        />
      )}
      {confirming && booking && (
        <CancelBookingDialog
          booking={booking}
          onClose={() => setConfirming(false)}
          onCancelled={() => {
            setConfirming(false);
            setCancelled(true);
          }}
          onStale={record.refetch}
        />
      )}
    </>
  );
}
