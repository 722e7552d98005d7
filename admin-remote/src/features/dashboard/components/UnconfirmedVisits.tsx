import { useId, useState } from 'react';
import { Button, ErrorPanel, styled, useCatalog } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { addDays, todayInMY } from 'shared-api';
import { telHref } from 'shared-api/schools';
import { useUnconfirmedVisitsQuery } from '../api/staffBookingsApi';
import { dashboardCatalog } from '../i18n';
import { formatInstantRange, formatPhone, formatWeekday } from '../../../lib/format';

/** A confirmation comes from the parent's phone at any time: the count is read again each minute while the page is in view. */
const POLL_MS = 60_000;

const Count = styled.p`
  margin: 0;
  font-size: 1.75rem;
  font-weight: 700;
`;

const Hint = styled.p`
  margin: 0.25rem 0 0.75rem;
  font-size: 0.875rem;
`;

const Visits = styled.ul`
  list-style: none;
  margin: 0.75rem 0 0;
  padding: 0;
  display: grid;
  gap: 0.75rem;
  li {
    display: grid;
    gap: 0.125rem;
    overflow-wrap: anywhere;
  }
  a {
    /* A number to tap on a phone: a target of at least 44 px. */
    display: inline-flex;
    align-items: center;
    min-height: 44px;
    width: fit-content;
  }
`;

const Muted = styled.span`
  font-size: 0.875rem;
`;

/**
 * Tomorrow's visits (GMT+8) booked and not confirmed by the parent, so the office can call: the count, and opened, each
 * visit's time, parent, contact number (a tel: link) and children. One request (GET /staff/visits/unconfirmed).
 */
export function UnconfirmedVisits() {
  const { t } = useCatalog(dashboardCatalog);
  const day = addDays(todayInMY(), 1);
  const { data, isLoading, isError, refetch } = useUnconfirmedVisitsQuery(day, {
    pollingInterval: POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const [open, setOpen] = useState(false);
  const listId = useId();
  const headingId = useId();
  const visits = data?.day === day ? data.visits : undefined;

  return (
    <section aria-labelledby={headingId}>
      <Card>
        <CardHeader>
          <CardTitle id={headingId}>{t('unconfirmedTitle')}</CardTitle>
        </CardHeader>
        <CardBody>
          {isError ? (
            <ErrorPanel
              title={t('unconfirmedLoadFailed')}
              message={t('historyLoadFailed')}
              onRetry={refetch}
              retryLabel={t('retry')}
            />
          ) : isLoading || !visits ? (
            <p role="status">{t('unconfirmedLoading')}</p>
          ) : visits.length === 0 ? (
            <p role="status">{t('unconfirmedAllConfirmed')}</p>
          ) : (
            <>
              <Count data-testid="unconfirmed-count">{t('unconfirmedCount', { count: visits.length })}</Count>
              <Hint>{t('unconfirmedHint', { date: formatWeekday(day) })}</Hint>
              <Button
                variant="secondary"
                aria-expanded={open}
                aria-controls={listId}
                onClick={() => setOpen((shown) => !shown)}
              >
                {open ? t('unconfirmedHide') : t('unconfirmedShow')}
              </Button>
              {open && (
                <Visits id={listId} aria-label={t('unconfirmedTitle')}>
                  {visits.map((visit) => {
                    const number = formatPhone(visit.visitorContactNo);
                    return (
                      <li key={`${visit.reference}-${visit.start}`}>
                        <strong>
                          <time dateTime={visit.start}>{formatInstantRange(visit.start, visit.end)}</time> ·{' '}
                          {visit.visitorName}
                        </strong>
                        {number ? (
                          <a
                            href={telHref(visit.visitorContactNo)}
                            aria-label={t('unconfirmedCall', { name: visit.visitorName, number })}
                          >
                            {number}
                          </a>
                        ) : (
                          <Muted>{t('notProvided')}</Muted>
                        )}
                        <Muted>
                          {visit.children.length > 0 ? visit.children.join(', ') : t('unconfirmedNoChildren')}
                          {visit.paid ? '' : ` · ${t('unconfirmedBookedByStaff')}`}
                        </Muted>
                      </li>
                    );
                  })}
                </Visits>
              )}
            </>
          )}
        </CardBody>
      </Card>
    </section>
  );
}
