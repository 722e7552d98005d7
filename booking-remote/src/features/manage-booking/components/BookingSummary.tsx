import { useEffect, useState, type ReactNode } from 'react';
import { formatRM, schoolName, type ManageView } from 'shared-api';
import { schoolYearName } from 'shared-api/schools';
import { styled, useCatalog } from 'shared-ui';
import { WHAT_TO_BRING_IDS, contractCatalog } from '../../../lib/contract-catalog';
import { SchoolPlaceRows } from '../../../lib/school-place/SchoolPlaceRows';
import { manageCatalog } from '../i18n';
import { calendarLinks, type CalendarLinks } from '../utils/calendar';
import { dayOf, stateText, timeSpan } from '../utils/words';
import { Actions, Details, LinkButton, VisitBlock } from './layout';

/** A child's own day and time (GMT+8, as the server gives it) as an instant. */
const childInstant = (date: string, time: string): string => `${date}T${time}:00+08:00`;

// A child's name and their line: grouped for the list's layout.
const ChildRow = styled.div`
  display: contents;
`;

/** The booking as it is now: when and where, reference, amount, status, what to bring (or `checklist`, the documents' part), and "Add to calendar". */
export function BookingSummary({ view, checklist }: { view: ManageView; checklist?: ReactNode }) {
  const withChecklist = checklist !== undefined;
  const words = useCatalog(manageCatalog);
  const { t, locale } = words;
  // The what-to-bring items and the calendar texts: the catalogue the server's mails use too.
  const { t: sharedText } = useCatalog(contractCatalog);
  const [calendar, setCalendar] = useState<CalendarLinks | null>(null);
  const { start, end, school, reference, calendarSequence } = view;

  // The calendar builders are a chunk of their own; the links follow the booking's time (a move updates them) and the page's language.
  useEffect(() => {
    let shown = true;
    setCalendar(null);
    void calendarLinks({ start, end, school, reference, calendarSequence }, new Date(), { locale, translate: sharedText }).then(
      (links) => shown && setCalendar(links),
      () => undefined,
    );
    return () => {
      shown = false;
    };
  }, [start, end, school, reference, calendarSequence, locale, sharedText]);

  return (
    <>
      {/* The visit leads (whose, where, when); what was paid follows. */}
      <VisitBlock aria-labelledby="manage-visit-title">
        <h2 id="manage-visit-title">
          {view.children
            ? t('visit.yours')
            : view.childName
            ? t('visit.for', { child: view.childYear ? t('childValue', { name: view.childName, year: schoolYearName(school, view.childYear, locale) }) : view.childName })
            : t('visit.yours')}
        </h2>
        <Details>
          <dt>{t('school')}</dt>
          <dd>{schoolName(school, locale)}</dd>
          <SchoolPlaceRows school={school} />
          <dt>{t('date')}</dt>
          <dd>{dayOf(start, words)}</dd>
          <dt>{t('time')}</dt>
          <dd>{t('timeGmt', { time: timeSpan(start, end, words) })}</dd>
        </Details>
      </VisitBlock>
      {view.children && (
        <section aria-labelledby="manage-children-title">
          <h2 id="manage-children-title">{t('children.title')}</h2>
          <Details>
            {view.children.map((child) => (
              <ChildRow key={child.position}>
                <dt>{child.childName}</dt>
                <dd>
                  {schoolYearName(child.selectedSchool, child.childYear, locale)}, {schoolName(child.selectedSchool, locale)}: {formatRM(child.amountSen, locale)}
                  {/* Staff moved this child alone to another time than the booking's (issue 37). */}
                  {child.time && !child.cancelled && (
                    <>
                      <br />
                      {t('children.ownTime', { day: dayOf(childInstant(child.time.date, child.time.startTime), words), time: timeSpan(childInstant(child.time.date, child.time.startTime), childInstant(child.time.date, child.time.endTime), words) })}
                    </>
                  )}
                  {child.cancelled && (
                    <>
                      {' '}
                      <strong>{t('children.cancelled')}</strong>
                      {` (${child.refundSen ? t('children.refund', { amount: formatRM(child.refundSen, locale) }) : t('children.noRefund')})`}
                    </>
                  )}
                </dd>
              </ChildRow>
            ))}
          </Details>
        </section>
      )}
      <Details>
        <dt>{t('reference')}</dt>
        <dd>{reference}</dd>
        <dt>{t('amountPaid')}</dt>
        <dd>{formatRM(view.amountPaidSen, locale)}</dd>
        <dt>{t('status')}</dt>
        <dd>{stateText(view.state, words)}</dd>
      </Details>
      {/* What to bring is the documents' checklist while the visit is to come (documents/); a past visit's page lists it plainly. */}
      {!withChecklist && (
        <section aria-labelledby="manage-bring-title">
          <h2 id="manage-bring-title">{t('whatToBring')}</h2>
          <ul>
            {WHAT_TO_BRING_IDS.map((id) => (
              <li key={id}>{sharedText(id)}</li>
            ))}
          </ul>
        </section>
      )}
      {checklist}
      {calendar && (
        <section aria-labelledby="manage-calendar-title">
          <h2 id="manage-calendar-title">{t('calendar.title')}</h2>
          <Actions>
            <LinkButton href={calendar.googleUrl} target="_blank" rel="noopener noreferrer">
              {t('calendar.google')}
            </LinkButton>
            <LinkButton href={`data:text/calendar;charset=utf-8,${encodeURIComponent(calendar.ics)}`} download="assessment-visit.ics">
              {t('calendar.ics')}
            </LinkButton>
          </Actions>
        </section>
      )}
    </>
  );
}
