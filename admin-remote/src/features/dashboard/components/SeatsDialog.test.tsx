// Seats (issue 37): staff raise or lower a time's children at a time from its row; a refusal is said in the server's words.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { ErrorCode } from 'shared-api';
import { API, fail } from '../../../test/handlers';
import { addSlot, issueToken } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';

setupMswServer();

beforeEach(() =>
  jest.useFakeTimers({ now: new Date('2026-11-16T00:00:00Z'), advanceTimers: true, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] }),
);
afterEach(() => jest.useRealTimers());

async function openSeats() {
  addSlot({ id: 41, date: '2026-11-24', startTime: '09:00', endTime: '09:30' });
  Cookies.set('token', issueToken(), { path: '/' });
  renderAdminApp('/secured/dashboard');
  await screen.findByRole('heading', { name: 'Assessment Dashboard' });
  await userEvent.click(await screen.findByRole('button', { name: 'Seats: children at a time for slot #41' }));
  return screen.findByRole('dialog', { name: 'Children at a time' });
}

test('a one-seat slot raised to 3: the request says 3, the dialog closes and a toast says the new seats', async () => {
  const sent: unknown[] = [];
  server.use(
    http.put(`${API}/slot/:id/seats`, async ({ request, params }) => {
      sent.push({ id: params.id, body: await request.json() });
      return HttpResponse.json({ success: true, data: { seats: 3, slots: [] }, message: '3 seat(s) at this time' });
    }),
  );
  const dialog = await openSeats();
  const choice = within(dialog).getByLabelText('Children at a time');
  expect(choice).toHaveValue('1');
  expect(within(dialog).getByText(/Seats can go down only to the children booked or paying/)).toBeInTheDocument();
  expect(await axe(dialog)).toHaveNoViolations();
  await userEvent.selectOptions(choice, '3');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(await screen.findByText(/now takes 3 children at a time\./)).toHaveTextContent(/24 Nov 2026.*9:00 AM – 9:30 AM now takes 3 children/);
  expect(sent).toEqual([{ id: '41', body: { seats: 3 } }]);
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Children at a time' })).not.toBeInTheDocument());
});

test('lowered below the children booked: the server refuses, its words show in the dialog, which stays open', async () => {
  const refusal = '2 children are booked or paying at this time, so it needs at least 2 seats.';
  server.use(http.put(`${API}/slot/:id/seats`, () => fail(409, ErrorCode.SLOT_NOT_AVAILABLE, refusal)));
  const dialog = await openSeats();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(await within(dialog).findByText(refusal)).toBeInTheDocument();
  expect(screen.getByRole('dialog', { name: 'Children at a time' })).toBeInTheDocument();
});
