// Seats (issue 37): a row of a time that seats several children says which seat it is and how many of the time's are taken.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { DASHBOARD_FILTER_STORAGE_KEY, type StaffSlot } from 'shared-api';
import { addSlot, issueToken } from '../../../test/db';
import { setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';

setupMswServer();

// Before every seeded slot (Monday 16 November 2026, 08:00 GMT+8), as the dashboard's own tests.
beforeEach(() =>
  jest.useFakeTimers({ now: new Date('2026-11-16T00:00:00Z'), advanceTimers: true, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] }),
);
afterEach(() => jest.useRealTimers());

const booked = {
  visitorName: 'Aisyah Rahman',
  visitorEmail: 'aisyah@example.my',
  visitorContactNo: '0123456789',
  selectedSchool: 'Seri Ilmu International',
  childName: 'Nur Iman',
  childYear: 'Year 2',
  bookingReference: 'BK-2026-0031',
  amountSen: 10000,
};

/** A 9:00 AM time with three seats, the first booked, and a one-seat slot at 11:00 AM. */
function seed() {
  // The staff list's seat fields, as the server sends them for a time with more than one seat.
  const seat = (slot: StaffSlot, n: number) => Object.assign(slot, { seat: n, seats: 3, seatsTaken: 1 });
  seat(addSlot({ id: 31, date: '2026-11-24', startTime: '09:00', endTime: '09:30', ...booked }), 1);
  seat(addSlot({ id: 32, date: '2026-11-24', startTime: '09:00', endTime: '09:30' }), 2);
  seat(addSlot({ id: 33, date: '2026-11-24', startTime: '09:00', endTime: '09:30' }), 3);
  addSlot({ id: 34, date: '2026-11-24', startTime: '11:00', endTime: '11:30' });
}

async function openDashboard() {
  Cookies.set('token', issueToken(), { path: '/' });
  renderAdminApp('/secured/dashboard');
  await screen.findByRole('heading', { name: 'Assessment Dashboard' });
}

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

test('the Available view says each free seat of a time and the seats taken of it; a one-seat slot says nothing of seats', async () => {
  seed();
  await openDashboard();
  await waitFor(() => expect(bodyRows()).toHaveLength(3));
  const [second, third, single] = bodyRows();
  expect(within(second).getByText('Seat 2 of 3 · 1 / 3 taken')).toBeInTheDocument();
  expect(within(second).getByText('9:00 AM – 9:30 AM')).toBeInTheDocument();
  expect(within(third).getByText('Seat 3 of 3 · 1 / 3 taken')).toBeInTheDocument();
  expect(within(single).getByText('11:00 AM – 11:30 AM')).toBeInTheDocument();
  expect(within(single).queryByText(/Seat \d/)).not.toBeInTheDocument();
  expect(await axe(screen.getByRole('table'))).toHaveNoViolations();
});

test("the Booked view and its phone cards say the booked seat and its time's seats taken", async () => {
  seed();
  window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
  await openDashboard();
  await waitFor(() => expect(bodyRows()).toHaveLength(1));
  expect(within(bodyRows()[0]).getByText('Seat 1 of 3 · 1 / 3 taken')).toBeInTheDocument();
  const card = within(screen.getByRole('list', { name: '1 booked slot found', hidden: true })).getByRole('listitem', { hidden: true });
  const dateTime = within(card)
    .getAllByRole('term', { hidden: true })
    .find((term) => term.textContent === 'Date & Time (GMT+8)');
  expect(dateTime?.nextElementSibling).toHaveTextContent('Tue 24 Nov 20269:00 AM – 9:30 AMSeat 1 of 3 · 1 / 3 taken');
});

test('the Booked view lists a booking of two children as one row: the parent once, each child with their year and school, both seats', async () => {
  // Two seats of one payment (BK-2026-0040) at a 3-seat time, the children at different schools; another parent's booking beside.
  const seat = (slot: StaffSlot, n: number) => Object.assign(slot, { seat: n, seats: 3, seatsTaken: 2 });
  const parent = { visitorName: 'Aisyah Rahman', visitorEmail: 'aisyah@example.my', visitorContactNo: '0123456789', bookingReference: 'BK-2026-0040' };
  seat(addSlot({ id: 42, date: '2026-11-24', startTime: '09:00', endTime: '09:30', ...parent, selectedSchool: 'Seri Ilmu Private Primary', childName: 'Siti Hajar', childYear: 'Year 1', amountSen: 4500 }), 2);
  seat(addSlot({ id: 41, date: '2026-11-24', startTime: '09:00', endTime: '09:30', ...parent, selectedSchool: 'Seri Ilmu Private Secondary', childName: 'Adam Firdaus', childYear: 'Form 1', amountSen: 7500 }), 1);
  seat(addSlot({ id: 43, date: '2026-11-24', startTime: '09:00', endTime: '09:30' }), 3);
  addSlot({ id: 44, date: '2026-11-25', startTime: '11:00', endTime: '11:30', ...booked });
  window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
  const user = userEvent.setup();
  await openDashboard();
  await waitFor(() => expect(bodyRows()).toHaveLength(2));
  expect(within(screen.getByRole('table')).getByText('3 booked slots found')).toBeInTheDocument();
  const cells = within(bodyRows()[0]).getAllByRole('cell').map((cell) => cell.textContent);
  expect(cells[0]).toBe('#41, #42');
  expect(within(bodyRows()[0]).getAllByRole('cell')[1]).toHaveTextContent('Seats 1, 2 of 3 · 2 / 3 taken');
  expect(cells.slice(4)).toEqual([
    'Aisyah Rahmanaisyah@example.my',
    'Adam FirdausForm 1Siti HajarYear 1',
    'Seri Ilmu Private SecondaryAdam FirdausSeri Ilmu Private PrimarySiti Hajar',
    '012-345 6789',
    // Attendance (issue 40): not marked.
    '',
  ]);
  // The per-school cards count each child under their own school.
  const cards = screen.getByRole('list', { name: 'Bookings by school' });
  const countOf = (name: string) => within(cards).getByText(name).nextElementSibling?.textContent;
  expect([countOf('Seri Ilmu Private Primary'), countOf('Seri Ilmu Private Secondary'), countOf('Seri Ilmu International')]).toEqual(['1', '1', '1']);
  expect(await axe(screen.getByRole('table'))).toHaveNoViolations();

  // A search for the younger child, or her school, finds the booking's one row.
  await user.type(screen.getByLabelText('Search bookings'), 'siti');
  await waitFor(() => expect(bodyRows()).toHaveLength(1));
  expect(within(bodyRows()[0]).getAllByRole('cell')[0].textContent).toBe('#41, #42');
  await user.clear(screen.getByLabelText('Search bookings'));
  await user.selectOptions(screen.getByRole('combobox', { name: 'School' }), 'Seri Ilmu Private Primary');
  await waitFor(() => expect(bodyRows()).toHaveLength(1));
  await user.click(within(bodyRows()[0]).getByRole('button', { name: 'View Details of slot #41' }));
  expect(await screen.findByRole('dialog', { name: 'Appointment Details' })).toBeInTheDocument();
});
