import { styled, useCatalog } from 'shared-ui';
import type { BookingEvent } from 'shared-api';
import { dashboardCatalog } from '../i18n';
import { formatInstant } from '../../../lib/format';
import { DetailsNote, DetailsSection } from './detailsSection';
import { eventSummary } from '../utils/history';

const Events = styled.ol`
  margin: 0;
  padding-left: ${({ theme }) => theme.space[5]};
  li {
    margin-bottom: ${({ theme }) => theme.space[2]};
    overflow-wrap: anywhere;
  }
  time {
    display: block;
    font-size: ${({ theme }) => theme.fontSizes.sm};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** A booking's history, oldest first: when (GMT+8), what, by whom, and the times moved or the amount refunded. */
export function BookingHistory({ events }: { events: BookingEvent[] }) {
  const { t } = useCatalog(dashboardCatalog);
  return (
    <DetailsSection aria-labelledby="booking-history-heading">
      <h3 id="booking-history-heading">{t('history')}</h3>
      {events.length === 0 ? (
        // The demo data, and bookings staff made before the audit trail, have no record of how they came.
        <DetailsNote>{t('historyNone')}</DetailsNote>
      ) : (
        <>
          <DetailsNote>{t('historyTimes')}</DetailsNote>
          <Events>
            {events.map((event, index) => (
              <li key={`${event.at}-${event.kind}-${index}`}>
                <time dateTime={event.at}>{formatInstant(event.at)}</time>
                {eventSummary(event)}
              </li>
            ))}
          </Events>
        </>
      )}
    </DetailsSection>
  );
}
