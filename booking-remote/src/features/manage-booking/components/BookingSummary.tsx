import { useEffect, useState } from 'react';
import { formatRM, WHAT_TO_BRING, type ManageView } from 'shared-api';
import { calendarLinks, type CalendarLinks } from '../utils/calendar';
import { dayOf, stateText, timeSpan } from '../utils/words';
import { Actions, Details, LinkButton } from './layout';

/** The booking as it is now: when and where, reference, amount, status, what to bring, and "Add to calendar". */
export function BookingSummary({ view }: { view: ManageView }) {
  const [calendar, setCalendar] = useState<CalendarLinks | null>(null);
  const { start, end, school, reference } = view;

  // The calendar builders are a chunk of their own; the links follow the booking's time (a move updates them).
  useEffect(() => {
    let shown = true;
    setCalendar(null);
    void calendarLinks({ start, end, school, reference }).then(
      (links) => shown && setCalendar(links),
      () => undefined,
    );
    return () => {
      shown = false;
    };
  }, [start, end, school, reference]);

  return (
    <>
      <Details>
        <dt>School</dt>
        <dd>{school}</dd>
        <dt>Date</dt>
        <dd>{dayOf(start)}</dd>
        <dt>Time</dt>
        <dd>{timeSpan(start, end)} (GMT+8)</dd>
        <dt>Reference</dt>
        <dd>{reference}</dd>
        <dt>Amount paid</dt>
        <dd>{formatRM(view.amountPaidSen)}</dd>
        <dt>Status</dt>
        <dd>{stateText(view.state)}</dd>
      </Details>
      <section aria-labelledby="manage-bring-title">
        <h2 id="manage-bring-title">What to bring</h2>
        <ul>
          {WHAT_TO_BRING.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </section>
      {calendar && (
        <section aria-labelledby="manage-calendar-title">
          <h2 id="manage-calendar-title">Add to calendar</h2>
          <Actions>
            <LinkButton href={calendar.googleUrl} target="_blank" rel="noopener noreferrer">
              Google Calendar
            </LinkButton>
            <LinkButton href={`data:text/calendar;charset=utf-8,${encodeURIComponent(calendar.ics)}`} download="assessment-visit.ics">
              Download .ics file
            </LinkButton>
          </Actions>
        </section>
      )}
    </>
  );
}
