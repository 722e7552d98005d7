import { useId } from 'react';
import { Button, Inline, styled, useCatalog } from 'shared-ui';
import { Badge } from 'shared-ui/data';
import { dateInMY } from 'shared-api';
import { telHref } from 'shared-api/schools';
import { AttendanceLabel, type DayVisit, type DayVisitChild, type VisitAttendanceState } from 'shared-api/visit-day';
import { visitDayCatalog } from '../i18n';
import { formatInstantRange, formatInstantTime, formatPhone, formatWeekday } from '../../../lib/format';
import { kindName } from './ChildDocumentsDialog';

const Item = styled.li`
  display: grid;
  gap: 0.5rem;
  padding: 0.75rem 0;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  overflow-wrap: anywhere;
  &:first-child {
    border-top: none;
  }
  a {
    /* A number to tap on a phone: a target of at least 44 px. */
    display: inline-flex;
    align-items: center;
    min-height: 44px;
  }
`;

const Heading = styled.h3`
  margin: 0;
  font-size: 1rem;
`;

const Muted = styled.span`
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Children = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 0.5rem;
  li {
    display: grid;
    gap: 0.25rem;
    padding-left: 0.75rem;
    border-left: 3px solid ${({ theme }) => theme.colors.border};
  }
`;

/** What a visit's buttons need: the time now (the server's clock), and what to do on each press. */
export type VisitActions = {
  now: number;
  busy: boolean;
  onMark: (visit: DayVisit, state: VisitAttendanceState) => void;
  onUndo: (visit: DayVisit) => void;
  onDocuments: (visit: DayVisit, child: DayVisitChild) => void;
};

function Checklist({ child }: { child: DayVisitChild }) {
  const { t } = useCatalog(visitDayCatalog);
  const list = child.checklist;
  if (!list) return <Muted>{t('noOnlineDocuments')}</Muted>;
  if (list.required === 0) return <Muted>{t('noneAsked')}</Muted>;
  if (list.missing.length === 0)
    return (
      <span>
        <Badge tone="success">{t('allIn')}</Badge>
      </span>
    );
  return (
    <span>
      <Badge tone="warning">{t('someIn', { in: list.inCount, required: list.required })}</Badge>{' '}
      <Muted>{t('missing', { kinds: list.missing.map(kindName).join(', ') })}</Muted>
    </span>
  );
}

/** One visit of the day: time, parent (a number to call), each child with their documents, and Arrived / No-show / Undo. */
export function VisitItem({ visit, actions }: { visit: DayVisit; actions: VisitActions }) {
  const { t } = useCatalog(visitDayCatalog);
  const reasonId = useId();
  const number = formatPhone(visit.visitorContactNo);
  const who = visit.children.map((c) => c.name).filter(Boolean).join(', ') || visit.visitorName;
  const started = actions.now >= Date.parse(visit.start);
  // As the server's rules: Arrived from the visit's day (GMT+8), No-show from its start.
  const beforeItsDay = dateInMY(actions.now) < dateInMY(visit.start);
  const reason = beforeItsDay ? t('notItsDay', { date: formatWeekday(visit.start) }) : started ? null : t('noShowFrom', { time: formatInstantTime(visit.start) });
  const mark = visit.attendance;
  const undoable = mark !== null && actions.now < Date.parse(mark.undoableUntil);

  return (
    <Item>
      <Inline>
        <Heading>
          <time dateTime={visit.start}>{formatInstantRange(visit.start, visit.end)}</time> · {visit.visitorName}
        </Heading>
        {mark && <Badge tone={mark.state === 'arrived' ? 'success' : 'danger'}>{AttendanceLabel[mark.state]}</Badge>}
      </Inline>
      <Inline>
        {number ? (
          <a href={telHref(visit.visitorContactNo)} aria-label={t('call', { name: visit.visitorName, number })}>
            {number}
          </a>
        ) : (
          <Muted>{t('noPhone')}</Muted>
        )}
        <Muted>{t('reference', { reference: visit.reference })}</Muted>
        {!visit.paid && <Muted>{t('bookedByStaff')}</Muted>}
      </Inline>
      <Children>
        {visit.children.map((child) => (
          <li key={child.position}>
            <strong>
              {child.name || t('noChildName')}
              {child.school && <Muted> · {child.school}</Muted>}
            </strong>
            <Checklist child={child} />
            {child.checklist && (
              <Button
                variant="secondary"
                size="sm"
                style={{ width: 'fit-content' }}
                aria-label={t('openDocumentsFor', { name: child.name || visit.visitorName })}
                onClick={() => actions.onDocuments(visit, child)}
              >
                {t('openDocuments')}
              </Button>
            )}
          </li>
        ))}
      </Children>
      {mark ? (
        <Inline>
          <span>
            {mark.state === 'arrived'
              ? t('arrivedAt', { time: formatInstantTime(mark.at), by: mark.by })
              : t('noShowAt', { time: formatInstantTime(mark.at), by: mark.by })}
          </span>
          {undoable && (
            <>
              <Button variant="secondary" size="sm" disabled={actions.busy} aria-label={t('undoFor', { name: who })} onClick={() => actions.onUndo(visit)}>
                {t('undo')}
              </Button>
              <Muted>{t('undoUntil', { time: formatInstantTime(mark.undoableUntil) })}</Muted>
            </>
          )}
        </Inline>
      ) : (
        <Inline>
          <Button
            variant="primary"
            size="sm"
            disabled={actions.busy || beforeItsDay}
            aria-label={t('markArrived', { name: who })}
            aria-describedby={beforeItsDay ? reasonId : undefined}
            onClick={() => actions.onMark(visit, 'arrived')}
          >
            {t('arrived')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={actions.busy || !started}
            aria-label={t('markNoShow', { name: who })}
            aria-describedby={reason ? reasonId : undefined}
            onClick={() => actions.onMark(visit, 'noShow')}
          >
            {t('noShow')}
          </Button>
          {reason && <Muted id={reasonId}>{reason}</Muted>}
        </Inline>
      )}
    </Item>
  );
}
