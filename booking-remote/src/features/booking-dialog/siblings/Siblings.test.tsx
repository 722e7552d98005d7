// Issue 37: brothers and sisters at one time, in one checkout: the dialog asks how many children on a time with free
// places, takes each child's name, school and year, shows each child's fee (a sibling discount off the second) and the
// total, pays with the siblings named, and keeps what was typed through a reload.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { BOOKING_STORAGE_KEY, brand } from 'shared-api';
import HomePage from '../../../pages/HomePage';
import { browserNavigation } from '../../../lib/browserNavigation';
import { legacyList, ok, paymentSession, publicSlot } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server, startMswServer } from '../../../test/server';

startMswServer();

const NOW = new Date('2026-11-25T10:00:00+08:00');
const [primary, secondary] = brand.schools;

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  window.localStorage.clear();
  jest.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

const setup = () => userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
type User = ReturnType<typeof setup>;

async function openOn(places: number | undefined) {
  server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot(places ? { placesLeft: places } : {})]))));
  const user = setup();
  renderApp(<HomePage />);
  const table = await screen.findByRole('table', { name: 'This week' });
  await user.click(within(table).getAllByRole('button', { name: /^9:00 AM, Thursday 26 November 2026/ })[0]);
  const dialog = await screen.findByRole('dialog', { name: 'Booking Details' });
  return { user, dialog };
}

async function fillTwoChildren(user: User, dialog: HTMLElement) {
  await user.selectOptions(within(dialog).getByLabelText('How many children are you booking for?'), '2');
  await user.type(within(dialog).getByLabelText('Visitor Name'), 'Aisyah Rahman');
  await user.type(within(dialog).getByLabelText('Email Address'), 'aisyah@example.com');
  await user.type(within(dialog).getByLabelText('Contact Number'), '012 345 6789');
  await waitFor(() => expect(screen.getAllByRole('option', { name: `${secondary.name} – RM 75` })).toHaveLength(2));
  // The first child's fields come first; the second's are in their own group.
  await user.selectOptions(within(dialog).getAllByLabelText('Selected School')[0], secondary.name);
  await user.type(within(dialog).getAllByLabelText("Child's Name")[0], 'Adam Firdaus');
  await user.selectOptions(within(dialog).getAllByLabelText('Year or Grade Applied For')[0], 'Form 1');
  const second = within(dialog).getByRole('group', { name: 'Child 2' });
  await user.type(within(second).getByLabelText("Child's Name"), 'Siti Hajar');
  await user.selectOptions(within(second).getByLabelText('Selected School'), primary.name);
  await user.selectOptions(within(second).getByLabelText('Year or Grade Applied For'), 'Year 1');
  await user.click(within(dialog).getByRole('checkbox'));
}

test('a one-seat slot asks no count: the dialog is as it always was', async () => {
  const { dialog } = await openOn(undefined);
  expect(within(dialog).queryByLabelText('How many children are you booking for?')).not.toBeInTheDocument();
  expect(within(dialog).queryByRole('group', { name: 'Child 2' })).not.toBeInTheDocument();
});

test('two children on a time with 3 places: each child on the summary with their fee, 10 % off the second, the total; paid with the sister named', async () => {
  const initiations: unknown[] = [];
  server.use(
    http.post(apiUrl('/api/payment/initiate'), async ({ request }) => {
      initiations.push(await request.json());
      return HttpResponse.json(ok({ paymentSession: paymentSession({ fee: 11750, expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) }));
    }),
  );
  const { user, dialog } = await openOn(3);
  const count = within(dialog).getByLabelText('How many children are you booking for?');
  expect(within(count).getAllByRole('option').map((o) => o.textContent)).toEqual(['1', '2', '3']);
  await fillTwoChildren(user, dialog);
  await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
  const summary = await screen.findByRole('dialog', { name: 'Payment Summary' });
  expect(within(summary).getByText('Adam Firdaus')).toBeInTheDocument();
  expect(within(summary).getByText('Siti Hajar')).toBeInTheDocument();
  expect(within(summary).getByText('RM 75')).toBeInTheDocument();
  expect(within(summary).getByText(/RM 50 − RM 5 \(Sibling discount\) = RM 45/)).toBeInTheDocument();
  expect(within(summary).getByText('Total')).toBeInTheDocument();
  expect(within(summary).getByText('RM 120')).toBeInTheDocument();

  await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
  await waitFor(() => expect(initiations).toHaveLength(1));
  expect(initiations[0]).toMatchObject({
    childName: 'Adam Firdaus',
    selectedSchool: secondary.name,
    fee: 12000,
    siblings: [{ childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: primary.name }],
  });
});

test("a second child's missing name is said at its field, and nothing is sent", async () => {
  const { user, dialog } = await openOn(2);
  await fillTwoChildren(user, dialog);
  const second = within(dialog).getByRole('group', { name: 'Child 2' });
  await user.clear(within(second).getByLabelText("Child's Name"));
  await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
  await waitFor(() => expect(within(second).getByLabelText("Child's Name")).toHaveAttribute('aria-invalid', 'true'));
  expect(screen.queryByRole('dialog', { name: 'Payment Summary' })).not.toBeInTheDocument();
});

test("the sister's details survive in the draft once on the summary (a reload or the gateway trip keeps them)", async () => {
  const { user, dialog } = await openOn(2);
  await fillTwoChildren(user, dialog);
  await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
  await screen.findByRole('dialog', { name: 'Payment Summary' });
  const draft = JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) ?? '{}');
  expect(draft.currentBooking).toMatchObject({ fee: 12000, siblings: [{ childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: primary.name }] });
});
