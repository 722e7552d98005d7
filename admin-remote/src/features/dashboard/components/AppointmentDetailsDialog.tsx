import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, CheckIcon, ErrorPanel, media, styled, useCatalog, type DefaultTheme } from 'shared-ui';
import { Badge } from 'shared-ui/data';
import { Dialog } from 'shared-ui/forms';
import { formatRM, httpStatus, serverMessage, type StaffBooking, type StaffSlot } from 'shared-api';
import { useStaffBookingQuery } from '../api/staffBookingsApi';
import { dashboardCatalog, type DashboardTranslate } from '../i18n';
import { formatInstant, formatWeekday } from '../../../lib/format';
import { formatContactNumber, formatSlotTimeRange } from '../utils/format';
import { bookingStateLabel, refundText } from '../utils/history';
import { BookingHistory } from './BookingHistory';
import { ParentMessages } from './ParentMessages';
import { stillBooked, useCancelBookingStep } from './CancelBookingStep';
import { CopyButton } from './CopyButton';
import type { DetailsStep, DetailsStepName } from './DetailsStep';
import { useMoveBookingStep } from './MoveBookingStep';

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

/* A booking's children (issue 37): one per line, a child's "Cancel this child" beside their line. */
const ChildList = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[2]};
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: ${({ theme }) => `${theme.space[1]} ${theme.space[2]}`};
  }
`;

/** `copy` is the text the copy button puts on the clipboard (the raw number for a phone); `content` is shown instead of `value`. */
type Row = { key: string; label: string; value: string; copy?: string | null; content?: ReactNode };

/** The parent's WhatsApp choice in words, with its time (GMT+8). */
const whatsappText = ({ whatsapp }: StaffBooking, t: DashboardTranslate): string =>
  whatsapp.state === 'opted_in' && whatsapp.at
    ? t('whatsappOptedIn', { time: formatInstant(whatsapp.at) })
    : whatsapp.state === 'withdrawn' && whatsapp.at
    ? t('whatsappWithdrawn', { time: formatInstant(whatsapp.at) })
    : t('whatsappNotAsked');

/** The booking's status and refund, the parent's answer to the reminder and their WhatsApp choice, as rows of the details list. */
const bookingRows = (booking: StaffBooking, t: DashboardTranslate): Row[] => {
  const refund = refundText(booking.state, booking.refund);
  const confirmedAt = booking.confirmedByParentAt;
  return [
    { key: 'status', label: t('rowStatus'), value: bookingStateLabel(booking.state) },
    ...(refund ? [{ key: 'refund', label: t('rowRefund'), value: refund }] : []),
    {
      key: 'confirmed',
      label: t('rowConfirmed'),
      value: confirmedAt ? `${t('confirmedByParent')} ${t('confirmedByParentAt', { time: formatInstant(confirmedAt) })}` : t('notConfirmed'),
      content: confirmedAt ? (
        <Confirmed>
          <Badge tone="success">
            <CheckIcon size={14} />
            {t('confirmedByParent')}
          </Badge>{' '}
          <time dateTime={confirmedAt}>{t('confirmedByParentAt', { time: formatInstant(confirmedAt) })}</time>
        </Confirmed>
      ) : undefined,
    },
    ...(booking.paymentId !== null ? [{ key: 'whatsapp', label: t('rowWhatsApp'), value: whatsappText(booking, t) }] : []),
  ];
};

/* The badge and its time side by side, the time under it on a narrow phone. */
const Confirmed = styled.span`
  display: inline-flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => `${theme.space[1]} ${theme.space[2]}`};
`;

/**
 * A child's line: name, year, school and share; a child moved alone to another time with that time (GMT+8); a cancelled
 * child marked, with what came back for them.
 */
const childLine = (child: NonNullable<StaffBooking['children']>[number], t: DashboardTranslate): string => {
  const line = t('childLine', { name: child.childName, year: child.childYear, school: child.selectedSchool, amount: formatRM(child.amountSen) });
  if (child.time && !child.cancelled) return [line, t('childAt', { date: formatWeekday(child.time.date), time: formatSlotTimeRange(child.time) })].join(' · ');
  if (!child.cancelled) return line;
  return [line, t('childCancelled'), ...(child.refundSen ? [t('childRefunded', { amount: formatRM(child.refundSen) })] : [])].join(' · ');
};

/** What staff last changed while the details were open: the details show its result. */
type Outcome = { kind: 'moved'; slot: StaffSlot } | { kind: 'cancelled' } | { kind: 'childCancelled'; name: string } | { kind: 'childMoved'; name: string } | null;

/**
 * Visitor details of a booked slot, the booking's status, refund and history (from GET /staff/bookings/:reference),
 * and Move or Cancel while it is booked. One dialog: a change replaces the details as its next step, its Back returns
 * to them, and its success shows them again with the result. Every value is rendered as text, never as markup.
 */
export function AppointmentDetailsDialog({ slot, onClose }: { slot: StaffSlot | null; onClose: () => void }) {
  const { t } = useCatalog(dashboardCatalog);
  const reference = slot?.bookingReference ?? null;
  // `skip`, not RTK's skipToken: importing @reduxjs/toolkit here would bundle a second copy of it into admin-remote.
  const record = useStaffBookingQuery(reference ?? '', { skip: !reference });
  const booking = record.currentData;
  const [step, setStep] = useState<DetailsStepName>('details');
  const [outcome, setOutcome] = useState<Outcome>(null);
  // Back from a change gives focus to the button that opened it (drawn again with the details).
  const [backFrom, setBackFrom] = useState<DetailsStepName | null>(null);
  const moveButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  // A booking of several children (issue 37): the child "Cancel this child" was chosen for (null: the whole booking), and each child's button.
  const [cancelChild, setCancelChild] = useState<number | null>(null);
  const childButtons = useRef(new Map<number, HTMLButtonElement>());
  // The same for "Move this child".
  const [moveChild, setMoveChild] = useState<number | null>(null);
  const moveChildButtons = useRef(new Map<number, HTMLButtonElement>());
  const back = () => {
    setBackFrom(step);
    setStep('details');
  };
  const move = useMoveBookingStep({
    booking,
    active: step === 'move',
    onBack: back,
    onMoved: (to, childName) => {
      // One child moved: the booking (and its slot) stays where it was.
      setOutcome(childName ? { kind: 'childMoved', name: childName } : { kind: 'moved', slot: to });
      setStep('details');
    },
    childPosition: moveChild,
  });
  const cancel = useCancelBookingStep({
    booking,
    active: step === 'cancel',
    onBack: back,
    onCancelled: (childName) => {
      setOutcome(childName ? { kind: 'childCancelled', name: childName } : { kind: 'cancelled' });
      setStep('details');
    },
    onStale: record.refetch,
    childPosition: cancelChild,
  });
  const openCancel = (position: number | null) => {
    setCancelChild(position);
    setStep('cancel');
  };
  const openMove = (position: number | null) => {
    setMoveChild(position);
    setStep('move');
  };
  const children = booking?.children;
  // "Cancel this child" while the booking stands and another child would stay booked.
  const childCancellable = booking?.state === 'booked' && stillBooked(booking).length > 1;

  // After a move the booking sits on the chosen slot: the details name that one.
  const shownSlot = outcome?.kind === 'moved' ? outcome.slot : slot;
  const rows: Row[] =
    slot && shownSlot
      ? [
          {
            key: 'slot',
            label: t('rowSlot'),
            value: t('rowSlotValue', {
              id: shownSlot.id,
              date: formatWeekday(shownSlot.date),
              time: formatSlotTimeRange(shownSlot),
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
          // A booking of several children: each child is in the Children row (the seat's own child would be named twice).
          ...(children
            ? []
            : [
                { key: 'school', label: t('rowSchool'), value: slot.selectedSchool ?? t('notProvided') },
                {
                  key: 'child',
                  label: t('rowChildName'),
                  value: slot.childName ?? t('notProvided'),
                  copy: slot.childName,
                },
                { key: 'childYear', label: t('rowChildYear'), value: slot.childYear ?? t('notProvided') },
              ]),
          {
            key: 'reference',
            label: t('rowPaymentReference'),
            value: slot.bookingReference ?? t('notProvided'),
            copy: slot.bookingReference,
          },
          {
            key: 'amount',
            label: t('rowAmount'),
            // Staff's direct bookings (and the demo data) carry the fee but no payment; a seat of several children carries its child's share, the payment is the whole.
            value:
              booking?.paymentId === null
                ? t('notPaid')
                : children && booking
                ? formatRM(booking.amountPaidSen)
                : slot.amountSen === null
                ? t('notProvided')
                : formatRM(slot.amountSen),
          },
          ...(children
            ? [
                {
                  key: 'children',
                  label: t('rowChildren'),
                  value: '',
                  content: (
                    <ChildList>
                      {children.map((child) => (
                        <li key={child.position}>
                          <span>{childLine(child, t)}</span>
                          {childCancellable && !child.cancelled && (
                            <Button
                              size="sm"
                              variant="secondary"
                              ref={(button) => {
                                if (button) moveChildButtons.current.set(child.position, button);
                                else moveChildButtons.current.delete(child.position);
                              }}
                              aria-label={t('moveChildOf', { name: child.childName })}
                              onClick={() => openMove(child.position)}
                            >
                              {t('moveChild')}
                            </Button>
                          )}
                          {childCancellable && !child.cancelled && (
                            <Button
                              size="sm"
                              variant="secondary"
                              ref={(button) => {
                                if (button) childButtons.current.set(child.position, button);
                                else childButtons.current.delete(child.position);
                              }}
                              aria-label={t('cancelChildOf', { name: child.childName })}
                              onClick={() => openCancel(child.position)}
                            >
                              {t('cancelChild')}
                            </Button>
                          )}
                        </li>
                      ))}
                    </ChildList>
                  ),
                },
              ]
            : []),
          ...(booking ? bookingRows(booking, t) : []),
        ]
      : [];

  const details: DetailsStep = {
    title: t('detailsTitle'),
    description:
      outcome?.kind === 'moved'
        ? t('movedDescription')
        : outcome?.kind === 'cancelled'
        ? t('cancelledDescription')
        : outcome?.kind === 'childCancelled'
        ? t('childCancelledDescription', { name: outcome.name })
        : outcome?.kind === 'childMoved'
        ? t('childMovedDescription', { name: outcome.name })
        : t('detailsDescription'),
    footer:
      booking?.state === 'booked' ? (
        <>
          <Button variant="secondary" ref={moveButton} onClick={() => openMove(null)}>
            {t('moveOpen')}
          </Button>
          <Button variant="danger" ref={cancelButton} onClick={() => openCancel(null)}>
            {t('cancelBooking')}
          </Button>
        </>
      ) : undefined,
    body: (
      <>
        <List>
          {rows.map((row) => (
            <div key={row.key} style={{ display: 'contents' }}>
              <dt>{row.label}</dt>
              <dd data-row={row.key} tabIndex={row.key === 'slot' || row.key === 'status' || row.key === 'children' ? -1 : undefined}>
                {row.content ?? row.value}
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
          <>
            <ParentMessages messages={booking.messages} />
            <BookingHistory events={booking.history} />
          </>
        ) : reference ? (
          <Loading role="status">{t('historyLoading')}</Loading>
        ) : null}
      </>
    ),
  };
  const shown = step === 'move' ? move : step === 'cancel' ? cancel : details;

  // Runs after the dialog's own focus on a new step (a child's effect runs first), so it wins.
  useEffect(() => {
    if (step !== 'details' || !backFrom) return;
    const childButton =
      backFrom === 'cancel' && cancelChild !== null
        ? childButtons.current.get(cancelChild)
        : backFrom === 'move' && moveChild !== null
        ? moveChildButtons.current.get(moveChild)
        : undefined;
    (childButton ?? (backFrom === 'move' ? moveButton : cancelButton).current)?.focus();
    setBackFrom(null);
  }, [step, backFrom, cancelChild, moveChild]);

  return (
    <Dialog
      open={slot !== null}
      onOpenChange={(isOpen) => {
        if (isOpen || shown.busy) return;
        setStep('details');
        setOutcome(null);
        onClose();
      }}
      title={shown.title}
      description={shown.description}
      footer={shown.footer}
      // Each step starts where a new dialog would; after a change, on the row that says its result.
      focusKey={`${step}:${outcome?.kind ?? ''}`}
      focusTarget={
        step !== 'details'
          ? undefined
          : outcome?.kind === 'moved'
          ? '[data-row="slot"]'
          : outcome?.kind === 'cancelled'
          ? '[data-row="status"]'
          : outcome?.kind === 'childCancelled' || outcome?.kind === 'childMoved'
          ? '[data-row="children"]'
          : undefined
      }
    >
      {shown.body}
    </Dialog>
  );
}
