import { HOLD_MINUTES, formatRM, schoolName } from 'shared-api';
import { styled, useCatalog } from 'shared-ui';
import { dialogCatalog } from '../i18n';
import type { BookingDetails } from '../utils/bookingDraft';
import {
  formatCountdown,
  isReservationAboutToExpire,
  isReservationValid,
  reservationRemainingMs,
  type SlotReservation,
} from '../utils/reservation';
import { slotWhenValues } from '../utils/dialogText';

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

type Props = { details: BookingDetails; reservation: SlotReservation | null; now: number };

/** Step 2: what is being paid for, and how long the slot stays held. */
export function SummaryStep({ details, reservation, now }: Props) {
  const { t, locale } = useCatalog(dialogCatalog);
  return (
    <div>
      <List>
        <dt>{t('name')}</dt>
        <dd>{details.visitorName}</dd>
        <dt>{t('school')}</dt>
        <dd>{schoolName(details.selectedSchool, locale)}</dd>
        <dt>{t('dateAndTime')}</dt>
        <dd>{t('slotWhen', slotWhenValues(details.slot.date, details.slot.startTime, locale))}</dd>
        <dt>{t('assessmentFee')}</dt>
        <Fee>{formatRM(details.fee, locale)}</Fee>
      </List>
      <Notice $tone="info">{t('holdNotice', { minutes: HOLD_MINUTES })}</Notice>
      {isReservationAboutToExpire(reservation, now) && (
        <Notice $tone="warning" role="alert">
          {t('expiresSoon', { countdown: formatCountdown(reservationRemainingMs(reservation as SlotReservation, now)) })}
        </Notice>
      )}
      {!isReservationValid(reservation, now) && (
        <Notice $tone="warning" role="alert">
          {t('expired')}
        </Notice>
      )}
    </div>
  );
}
