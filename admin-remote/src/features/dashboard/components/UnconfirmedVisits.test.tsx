import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { addDays, todayInMY } from 'shared-api';
import { addBooking, db, issueToken } from '../../../test/db';
import { API } from '../../../test/handlers';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';

setupMswServer();

// Tomorrow in GMT+8 as the card asks for it, whatever the day the test runs on.
const tomorrow = () => addDays(todayInMY(), 1);
const at = (day: string, time: string) => new Date(`${day}T${time}:00+08:00`).toISOString();

function seedTomorrow() {
  const day = tomorrow();
  addBooking({
    reference: 'BK-0902',
    start: at(day, '09:00'),
    end: at(day, '09:30'),
    visitorName: 'Nur Aina',
    visitorContactNo: '0123456789',
    childName: 'Adam Firdaus',
  });
  addBooking({
    reference: 'BK-0830',
    start: at(day, '08:30'),
    end: at(day, '09:00'),
    visitorName: 'Tan Mei Ling',
    visitorContactNo: '03-7726 4100',
    childName: 'Tan Jia Yi',
    children: [
      {
        position: 1,
        childName: 'Tan Jia Yi',
        childYear: 'Year 1',
        selectedSchool: 'Seri Ilmu Private Primary',
        feeSen: 4500,
        discountSen: 0,
        amountSen: 4500,
        cancelled: false,
        refundSen: null,
      },
      {
        position: 2,
        childName: 'Tan Jia Hao',
        childYear: 'Year 3',
        selectedSchool: 'Seri Ilmu Private Primary',
        feeSen: 4500,
        discountSen: 450,
        amountSen: 4050,
        cancelled: false,
        refundSen: null,
      },
    ],
  });
  // Confirmed, cancelled, or another day: not the office's to call.
  addBooking({
    reference: 'BK-CONF',
    start: at(day, '10:00'),
    end: at(day, '10:30'),
    visitorName: 'Confirmed Parent',
    confirmedByParentAt: new Date().toISOString(),
  });
  addBooking({
    reference: 'BK-CANC',
    start: at(day, '11:00'),
    end: at(day, '11:30'),
    visitorName: 'Cancelled Parent',
    state: 'cancelled',
  });
  addBooking({
    reference: 'BK-LATER',
    start: at(addDays(day, 1), '09:00'),
    end: at(addDays(day, 1), '09:30'),
    visitorName: 'Later Parent',
  });
}

async function openDashboard() {
  Cookies.set('token', issueToken(), { path: '/' });
  const user = userEvent.setup();
  const view = renderAdminApp('/secured/dashboard');
  const card = await screen.findByRole('region', { name: "Tomorrow's visits not yet confirmed" });
  return { user, card, view };
}

describe("Dashboard: tomorrow's visits not yet confirmed", () => {
  it('counts them, and opened lists each by time with the parent, a number to call and the children', async () => {
    seedTomorrow();
    const { user, card, view } = await openDashboard();
    expect(await within(card).findByText('2 visits to call')).toBeInTheDocument();
    expect(db.unconfirmedRequests).toEqual([tomorrow()]);
    // Closed, no names are shown; opening lists them.
    expect(within(card).queryByText(/Nur Aina/)).not.toBeInTheDocument();
    const show = within(card).getByRole('button', { name: 'Show who to call' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await user.click(show);
    expect(within(card).getByRole('button', { name: 'Hide the list' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );

    const items = within(
      within(card).getByRole('list', { name: "Tomorrow's visits not yet confirmed" }),
    ).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '8:30 AM – 9:00 AM · Tan Mei Ling03-7726 4100Tan Jia Yi, Tan Jia Hao',
      '9:00 AM – 9:30 AM · Nur Aina012-345 6789Adam Firdaus',
    ]);
    expect(within(items[0]).getByRole('link', { name: 'Call Tan Mei Ling on 03-7726 4100' })).toHaveAttribute(
      'href',
      'tel:+60377264100',
    );
    expect(within(items[1]).getByRole('link', { name: 'Call Nur Aina on 012-345 6789' })).toHaveAttribute(
      'href',
      'tel:+60123456789',
    );
    expect(await axe(view.container)).toHaveNoViolations();
  });

  it("says all of tomorrow's visits are confirmed when none is left to call", async () => {
    addBooking({
      reference: 'BK-CONF',
      start: at(tomorrow(), '10:00'),
      end: at(tomorrow(), '10:30'),
      confirmedByParentAt: new Date().toISOString(),
    });
    const { card } = await openDashboard();
    expect(await within(card).findByRole('status')).toHaveTextContent(
      "All of tomorrow's visits are confirmed.",
    );
    expect(within(card).queryByRole('button', { name: 'Show who to call' })).not.toBeInTheDocument();
  });

  it('says when the visits could not be loaded, and Retry asks again', async () => {
    seedTomorrow();
    server.use(
      http.get(
        `${API}/staff/visits/unconfirmed`,
        () =>
          HttpResponse.json(
            { success: false, data: null, message: 'Database down', error: 'INTERNAL' },
            { status: 500 },
          ),
        { once: true },
      ),
    );
    const { user, card } = await openDashboard();
    expect(await within(card).findByText("Could not load tomorrow's visits.")).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Retry' }));
    expect(await within(card).findByText('2 visits to call')).toBeInTheDocument();
  });
});
