import { useEffect, useId, useMemo, useState } from 'react';
import { Button, ErrorPanel, styled, useCatalog, useToast } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { addDays, serverMessage, todayInMY } from 'shared-api';
import type { DayVisit, DayVisitChild, VisitAttendanceState } from 'shared-api/visit-day';
import { useMarkAttendanceMutation, useUndoAttendanceMutation, useVisitDayQuery } from '../api/visitDayApi';
import { visitDayCatalog } from '../i18n';
import { sevenDaysFrom, shortDay } from '../utils/week';
import { formatWeekday } from '../../../lib/format';
import { ChildDocumentsDialog, type DocumentsTarget } from './ChildDocumentsDialog';
import { VisitItem } from './VisitItem';

/** Arrivals and uploads come in all day: the list is read again each minute while the page is in view. */
const POLL_MS = 60_000;
/** The buttons follow the clock (No-show from the start, Undo for 5 minutes): redrawn this often. */
const TICK_MS = 10_000;

const Days = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin-bottom: 0.75rem;
`;

const Visits = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
`;

const Count = styled.p`
  margin: 0 0 0.5rem;
  font-weight: 600;
`;

/**
 * The staff's day (issue 40): a day picker over seven days (today first, a week back or on), the day's visits in start order, each child's
 * documents ("All documents in", "2 of 4 in" and what is missing, the documents to open), and per visit Arrived,
 * No-show (from its start) and Undo (for 5 minutes). Times follow the server's clock.
 */
export function TodayView() {
  const { t } = useCatalog(visitDayCatalog);
  const toast = useToast();
  const headingId = useId();
  const today = todayInMY();
  const [first, setFirst] = useState(today);
  const [day, setDay] = useState(today);
  const { data, isLoading, isError, refetch } = useVisitDayQuery(day, { pollingInterval: POLL_MS, skipPollingIfUnfocused: true });
  const [markAttendance, { isLoading: marking }] = useMarkAttendanceMutation();
  const [undoAttendance, { isLoading: undoing }] = useUndoAttendanceMutation();
  const [documents, setDocuments] = useState<DocumentsTarget | null>(null);
  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setTick(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  // The server's clock decides what is allowed: its time when the list came, moved on by the time since.
  const skew = useMemo(() => (data ? Date.parse(data.now) - Date.now() : 0), [data]);
  const now = tick + skew;
  const visits = data?.day === day ? data.visits : undefined;
  const week = sevenDaysFrom(first);
  const moveWeek = (days: number) => {
    setFirst(addDays(first, days));
    setDay(addDays(first, days));
  };
  const whoOf = (visit: DayVisit) => visit.children.map((c) => c.name).filter(Boolean).join(', ') || visit.visitorName;

  const onMark = async (visit: DayVisit, state: VisitAttendanceState) => {
    const result = await markAttendance({ reference: visit.reference, start: visit.start, state });
    if ('error' in result) toast.error(serverMessage(result.error) ?? t('markFailed'));
    else toast.success(t(state === 'arrived' ? 'markedArrived' : 'markedNoShow', { name: whoOf(visit) }));
  };
  const onUndo = async (visit: DayVisit) => {
    const result = await undoAttendance({ reference: visit.reference, start: visit.start });
    if ('error' in result) {
      toast.error(serverMessage(result.error) ?? t('markFailed'));
      refetch();
    } else toast.success(t('undone', { name: whoOf(visit) }));
  };
  const onDocuments = (visit: DayVisit, child: DayVisitChild) =>
    setDocuments({ reference: visit.reference, position: child.position, name: child.name || visit.visitorName, start: visit.start, end: visit.end });

  return (
    <section aria-labelledby={headingId}>
      <Card>
        <CardHeader>
          <CardTitle id={headingId}>{t('title')}</CardTitle>
        </CardHeader>
        <CardBody>
          <Days role="group" aria-label={t('dayPicker')}>
            <Button variant="ghost" size="sm" onClick={() => moveWeek(-7)}>
              {t('previousWeek')}
            </Button>
            {week.map((d) => (
              <Button
                key={d}
                size="sm"
                variant={d === day ? 'primary' : 'secondary'}
                aria-pressed={d === day}
                aria-label={d === today ? `${t('today')}, ${formatWeekday(d)}` : formatWeekday(d)}
                onClick={() => setDay(d)}
              >
                {d === today ? t('today') : shortDay(d)}
              </Button>
            ))}
            <Button variant="ghost" size="sm" onClick={() => moveWeek(7)}>
              {t('nextWeek')}
            </Button>
          </Days>
          {isError ? (
            <ErrorPanel title={t('loadFailed')} message={t('loadFailedHint')} onRetry={refetch} retryLabel={t('retry')} />
          ) : isLoading || !visits ? (
            <p role="status">{t('loading')}</p>
          ) : visits.length === 0 ? (
            <div role="status">
              <p style={{ margin: 0, fontWeight: 600 }}>{t('none', { date: formatWeekday(day) })}</p>
              <p style={{ margin: '0.25rem 0 0' }}>{t('noneHint')}</p>
            </div>
          ) : (
            <>
              <Count>{t('count', { count: visits.length, date: formatWeekday(day) })}</Count>
              <Visits aria-label={t('visitsList', { date: formatWeekday(day) })}>
                {visits.map((visit) => (
                  <VisitItem key={`${visit.reference}-${visit.start}`} visit={visit} actions={{ now, busy: marking || undoing, onMark, onUndo, onDocuments }} />
                ))}
              </Visits>
            </>
          )}
        </CardBody>
      </Card>
      <ChildDocumentsDialog target={documents} onClose={() => setDocuments(null)} />
    </section>
  );
}
