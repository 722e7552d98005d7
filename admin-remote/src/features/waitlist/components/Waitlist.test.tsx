import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { brand } from 'shared-api';
import type { StaffWaitlistEntry } from 'shared-api/waitlist';
import { issueToken } from '../../../test/db';
import { API } from '../../../test/handlers';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';

// Issue 26: staff see each school's waitlist in order with dates, state and offers, and move or remove an entry with a reason.
setupMswServer();

const school = brand.schools[0].name;
const entry = (id: number, name: string, position: number | null, state: StaffWaitlistEntry['state'] = 'waiting', at = school, children = 1): StaffWaitlistEntry => ({
  id,
  position,
  name,
  email: `${name.toLowerCase()}@example.com`,
  phone: '0123456789',
  school: at,
  childName: `${name} Junior`,
  childYear: 'Year 1',
  children,
  fromDate: '2026-12-01',
  toDate: '2026-12-11',
  partOfDay: 'any',
  state,
  joinedAt: '2026-11-25T02:00:00.000Z',
  // 10:30 GMT+8
  offer: state === 'offered' ? { slot: { id: 9, date: '2026-12-02', startTime: '09:00', endTime: '09:30' }, expiresAt: '2026-11-25T02:30:00.000Z' } : null,
  offers:
    state === 'offered'
      ? [{ slot: { id: 9, date: '2026-12-02', startTime: '09:00', endTime: '09:30' }, createdAt: '2026-11-25T02:00:00.000Z', expiresAt: '2026-11-25T02:30:00.000Z', outcome: null }]
      : [],
});

beforeEach(() => Cookies.set('token', issueToken(1), { path: '/' }));
afterEach(() => Cookies.remove('token', { path: '/' }));

it('lists the entries in order with their state, and moves one up with a reason', async () => {
  let list = [entry(1, 'Aminah', 1, 'offered'), entry(2, 'Beng', 2, 'waiting', school, 2), entry(3, 'Chandra', null, 'left')];
  const moves: unknown[] = [];
  server.use(
    http.get(`${API}/staff/waitlist`, () => HttpResponse.json({ success: true, data: { entries: list }, message: 'OK' })),
    http.post(`${API}/staff/waitlist/:id/move`, async ({ request, params }) => {
      moves.push({ id: params.id, ...((await request.json()) as object) });
      list = [entry(2, 'Beng', 1), entry(1, 'Aminah', 2, 'offered'), entry(3, 'Chandra', null, 'left')];
      return HttpResponse.json({ success: true, data: { entries: list }, message: 'Moved' });
    }),
  );
  const user = userEvent.setup();
  renderAdminApp('/secured/waitlist');
  const table = await screen.findByRole('table');
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows.map((row) => within(row).getAllByRole('cell')[1].querySelector('strong')?.textContent)).toEqual(['Aminah', 'Beng', 'Chandra']);
  expect(rows[0]).toHaveTextContent('Offered until 10:30');
  expect(rows[2]).toHaveTextContent('Left');
  // Issue 37: an entry for brothers and sisters says how many; one child says nothing more.
  expect(rows[1]).toHaveTextContent('2 children, seen together');
  expect(rows[0]).not.toHaveTextContent('children, seen together');
  expect(within(rows[2]).queryByRole('button')).not.toBeInTheDocument();
  expect(within(rows[0]).getByRole('button', { name: 'Move Aminah up' })).toBeDisabled();

  await user.click(within(rows[1]).getByRole('button', { name: 'Move Beng up' }));
  const dialog = await screen.findByRole('dialog', { name: 'Move Beng up' });
  await user.click(within(dialog).getByRole('button', { name: 'Move' }));
  expect(await within(dialog).findByText('Please give a reason.')).toBeInTheDocument();
  await user.type(within(dialog).getByLabelText('Reason'), 'Sibling already enrolled');
  await user.click(within(dialog).getByRole('button', { name: 'Move' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(moves).toEqual([{ id: '2', direction: 'up', reason: 'Sibling already enrolled' }]);
  await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')[1]).toHaveTextContent('Beng'));
});

it('shows the waitlist counts on the dashboard', async () => {
  server.use(http.get(`${API}/staff/waitlist/summary`, () => HttpResponse.json({ success: true, data: { waiting: 7, offersLive: 2, filledThisWeek: 3 }, message: 'OK' })));
  renderAdminApp('/secured/dashboard');
  await waitFor(() => expect(screen.getByTestId('waitlist-waiting')).toHaveTextContent('7'));
  expect(screen.getByTestId('waitlist-offers-live')).toHaveTextContent('2');
  expect(screen.getByTestId('waitlist-filled')).toHaveTextContent('3');
});

it('opens on every school: where parents wait is seen at once, each with their child and school; first and last are per school', async () => {
  const other = brand.schools[2].name;
  const asked: string[] = [];
  server.use(
    http.get(`${API}/staff/waitlist`, ({ request }) => {
      asked.push(new URL(request.url).search);
      return HttpResponse.json({ success: true, data: { entries: [entry(1, 'Aminah', 1), entry(4, 'Devi', 1, 'waiting', other)] }, message: 'OK' });
    }),
  );
  renderAdminApp('/secured/waitlist');
  const table = await screen.findByRole('table');
  expect(screen.getByRole('combobox', { name: 'School' })).toHaveValue('');
  expect(screen.getByRole('combobox', { name: 'School' })).toHaveDisplayValue('All schools');
  expect(asked[0]).toBe('');
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows[1]).toHaveTextContent('Child: Devi Junior, Year 1');
  expect(rows[1]).toHaveTextContent(other);
  // Each is first and last in its own school's line.
  expect(within(rows[1]).getByRole('button', { name: 'Move Devi up' })).toBeDisabled();
  expect(within(rows[1]).getByRole('button', { name: 'Move Devi down' })).toBeDisabled();
});
