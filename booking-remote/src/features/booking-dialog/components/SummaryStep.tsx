import { HOLD_MINUTES, formatMinutes12, formatRM, parseSlotTime, dayInMY } from 'shared-api';
import { styled } from 'shared-ui';
import type { BookingDetails } from '../utils/bookingDraft';
import {
  formatCountdown,
  isReservationAboutToExpire,
  isReservationValid,
  reservationRemainingMs,
  type SlotReservation,
} from '../utils/reservation';

const List = styled.dl`
  display: grid;
  grid-template-columns: minmax(0, auto) minmax(0, 1fr);
  gap: ${({ theme }) => theme.space[2]} ${({ theme }) => theme.space[4]};
  margin: 0 0 ${({ theme }) => theme.space[4]};
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
    font-weight: ${({ theme }) => theme.fontWeights.medium};
    overflow-wrap: anywhere;
  }
`;

const Fee = styled.dd`
  font-size: ${({ theme }) => theme.fontSizes.xl};
  font-weight: ${({ theme }) => theme.fontWeights.bold} !important;
`;

const Notice = styled.p<{ $tone: 'info' | 'warning' }>`
  margin: 0 0 ${({ theme }) => theme.space[3]};
  padding: ${({ theme }) => theme.space[3]};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme, $tone }) => ($tone === 'warning' ? theme.colors.warningSubtle : theme.colors.infoSubtle)};
  color: ${({ theme }) => theme.colors.text};
`;

/** "Thursday 26 November 2026, 9:00 AM" for a slot. */
export function slotWhen(date: string, startTime: string): string {
  const day = dayInMY(date).format('dddd D MMMM YYYY');
  const minutes = parseSlotTime(startTime);
  return `${day}, ${minutes === null ? startTime : formatMinutes12(minutes)}`;
}

type Props = { details: BookingDetails; reservation: SlotReservation | null; now: number };

/** Step 2: what is being paid for, and how long the slot stays held. */
export function SummaryStep({ details, reservation, now }: Props) {
  return (
    <div>
      <List>
        <dt>Name</dt>
        <dd>{details.visitorName}</dd>
        <dt>School</dt>
        <dd>{details.selectedSchool}</dd>
        <dt>Date and time</dt>
        <dd>{slotWhen(details.slot.date, details.slot.startTime)} (GMT+8)</dd>
        <dt>Assessment fee</dt>
        <Fee>{formatRM(details.fee)}</Fee>
      </List>
      <Notice $tone="info">This slot is reserved for you for {HOLD_MINUTES} minutes while you complete payment.</Notice>
      {isReservationAboutToExpire(reservation, now) && (
        <Notice $tone="warning" role="alert">
          Your reservation expires in {formatCountdown(reservationRemainingMs(reservation as SlotReservation, now))}. Please proceed to
          payment soon.
        </Notice>
      )}
      {!isReservationValid(reservation, now) && (
        <Notice $tone="warning" role="alert">
          Your reservation has expired. Proceed to Payment will try to reserve the slot again.
        </Notice>
      )}
    </div>
  );
}
