// Issue 37: brothers and sisters at one time, in one checkout: the dialog asks how many children on a time with free
// places, takes each child's name, school and year, shows each child's fee (a sibling discount off the second) and the
// total, pays with the siblings named, and keeps what was typed through a reload.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router-dom';
import { BOOKING_STORAGE_KEY, brand, ErrorCode } from 'shared-api';
import { BookingMessage } from 'shared-api/messages';
import HomePage from '../../../pages/HomePage';
import PaymentFailurePage from '../../../pages/PaymentFailurePage';
import { browserNavigation } from '../../../lib/browserNavigation';
import { legacyList, ok, paymentSession, paymentStatusResult, publicSlot, CONSENT_BOX } from '../../../test/fixtures';
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
  server.use(listWith(places));
  const user = setup();
  renderApp(<HomePage />);
  const table = await screen.findByRole('table', { name: 'This week' });
  await user.click(within(table).getAllByRole('button', { name: /^9:00 AM, Thursday 26 November 2026/ })[0]);
  const dialog = await screen.findByRole('dialog', { name: 'Booking Details' });
  return { user, dialog };
}

/** The list's answer: the 9:00 time with this many places (none said: one place, as the spec's list). */
const listWith = (places: number | undefined) =>
  http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot(places ? { placesLeft: places } : {})])));

/** Every initiate body sent, answered with a session (or by `answer`). */
function initiations(answer?: () => Response) {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.post(apiUrl('/api/payment/initiate'), async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      return answer?.() ?? HttpResponse.json(ok({ paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) }));
    }),
  );
  return bodies;
}

async function fillTwoChildren(user: User, dialog: HTMLElement, [first, second] = [secondary, primary]) {
  const yearOf = (school: typeof primary) => (school === primary ? 'Year 1' : 'Form 1');
  await user.selectOptions(within(dialog).getByLabelText('How many children are you booking for?'), '2');
  await user.type(within(dialog).getByLabelText('Visitor Name'), 'Aisyah Rahman');
  await user.type(within(dialog).getByLabelText('Email Address'), 'aisyah@example.com');
  await user.type(within(dialog).getByLabelText('Contact Number'), '012 345 6789');
  await waitFor(() => expect(screen.getAllByRole('option', { name: `${secondary.name} – RM 75` })).toHaveLength(2));
  // The first child's fields come first; the second's are in their own group.
  await user.selectOptions(within(dialog).getAllByLabelText('Selected School')[0], first.name);
  await user.type(within(dialog).getAllByLabelText("Child's Name")[0], 'Adam Firdaus');
  await user.selectOptions(within(dialog).getAllByLabelText('Year or Grade Applied For')[0], yearOf(first));
  const group = within(dialog).getByRole('group', { name: 'Child 2' });
  await user.type(within(group).getByLabelText("Child's Name"), 'Siti Hajar');
  await user.selectOptions(within(group).getByLabelText('Selected School'), second.name);
  await user.selectOptions(within(group).getByLabelText('Year or Grade Applied For'), yearOf(second));
  await user.click(within(dialog).getByRole('checkbox', CONSENT_BOX));
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

test('Primary first, Secondary second: RM 50, then RM 75 less RM 7.50 = RM 67.50, total RM 117.50; the Secondary child sent as the sibling', async () => {
  const bodies = initiations();
  const { user, dialog } = await openOn(3);
  await fillTwoChildren(user, dialog, [primary, secondary]);
  await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
  const summary = await screen.findByRole('dialog', { name: 'Payment Summary' });
  const first = within(summary).getByText('Adam Firdaus').closest('dd') as HTMLElement;
  expect(first).toHaveTextContent(`Year 1, ${primary.name}RM 50`);
  const second = within(summary).getByText('Siti Hajar').closest('dd') as HTMLElement;
  expect(second).toHaveTextContent(`Form 1, ${secondary.name}RM 75 − RM 7.50 (Sibling discount) = RM 67.50`);
  expect(within(summary).getByText('Total').nextElementSibling).toHaveTextContent(/^RM 117.50$/);
  // Issue 37: the schools are at different addresses, so the summary says where all are seen, before paying.
  expect(within(summary).getByText(/^All your children are seen together at Seri Ilmu Private Primary, /)).toBeInTheDocument();

  await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
  await waitFor(() => expect(bodies).toHaveLength(1));
  expect(bodies[0]).toMatchObject({ childName: 'Adam Firdaus', childYear: 'Year 1', selectedSchool: primary.name, fee: 11750 });
  expect(bodies[0].siblings).toEqual([{ childName: 'Siti Hajar', childYear: 'Form 1', selectedSchool: secondary.name }]);
});

test('one child on a time of several places: the count is asked, and the payment names no siblings', async () => {
  const bodies = initiations();
  const { user, dialog } = await openOn(3);
  await user.type(within(dialog).getByLabelText('Visitor Name'), 'Aisyah Rahman');
  await user.type(within(dialog).getByLabelText('Email Address'), 'aisyah@example.com');
  await user.type(within(dialog).getByLabelText('Contact Number'), '012 345 6789');
  await waitFor(() => expect(screen.getByRole('option', { name: `${primary.name} – RM 50` })).toBeInTheDocument());
  await user.selectOptions(within(dialog).getByLabelText('Selected School'), primary.name);
  await user.type(within(dialog).getByLabelText("Child's Name"), 'Adam Firdaus');
  await user.selectOptions(within(dialog).getByLabelText('Year or Grade Applied For'), 'Year 1');
  await user.click(within(dialog).getByRole('checkbox', CONSENT_BOX));
  await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
  const summary = await screen.findByRole('dialog', { name: 'Payment Summary' });
  expect(within(summary).queryByText('Total')).not.toBeInTheDocument();
  await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
  await waitFor(() => expect(bodies).toHaveLength(1));
  expect(bodies[0]).toMatchObject({ childName: 'Adam Firdaus', fee: 5000 });
  expect(bodies[0]).not.toHaveProperty('siblings');
});

test('too few places left for both children: said in the dialog with everything kept; with one child the same time is paid', async () => {
  let refuse = true;
  const bodies = initiations(() =>
    refuse
      ? HttpResponse.json(
          { success: false, data: null, error: ErrorCode.SLOT_NOT_AVAILABLE, message: BookingMessage.notEnoughPlaces, reason: { rule: 'notEnoughPlaces' } },
          { status: 409 },
        )
      : HttpResponse.json(ok({ paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) })),
  );
  const { user, dialog } = await openOn(2);
  await fillTwoChildren(user, dialog);
  await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
  const summary = await screen.findByRole('dialog', { name: 'Payment Summary' });
  await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));

  const details = await screen.findByRole('dialog', { name: 'Booking Details' });
  expect(await within(details).findByRole('alert')).toHaveTextContent(
    'Not enough places are left at this time for all your children. Everything you typed is kept: choose fewer children, or another time.',
  );
  expect(within(within(details).getByRole('group', { name: 'Child 2' })).getByLabelText("Child's Name")).toHaveValue('Siti Hajar');
  expect(within(details).getAllByLabelText("Child's Name")[0]).toHaveValue('Adam Firdaus');

  refuse = false;
  await user.selectOptions(within(details).getByLabelText('How many children are you booking for?'), '1');
  expect(within(details).queryByRole('group', { name: 'Child 2' })).not.toBeInTheDocument();
  await user.click(within(details).getByRole('button', { name: 'Continue to Payment' }));
  const again = await screen.findByRole('dialog', { name: 'Payment Summary' });
  expect(within(again).queryByText('Siti Hajar')).not.toBeInTheDocument();
  await user.click(within(again).getByRole('button', { name: 'Proceed to Payment' }));
  await waitFor(() => expect(bodies).toHaveLength(2));
  expect(bodies[1]).toMatchObject({ childName: 'Adam Firdaus', fee: 7500 });
  expect(bodies[1]).not.toHaveProperty('siblings');
});

test("to the gateway, cancelled there, and back (a new page load): booking the time again brings the second child's name back", async () => {
  // A payment id as the server makes them (the result page reads no other).
  const id = 'pay_0123456789abcdef0123456789abcdef';
  server.use(
    http.post(apiUrl('/api/payment/initiate'), () =>
      HttpResponse.json(ok({ paymentSession: paymentSession({ id, paymentId: id, expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) })),
    ),
  );
  const first = await openOn(3);
  await fillTwoChildren(first.user, first.dialog);
  await first.user.click(within(first.dialog).getByRole('button', { name: 'Continue to Payment' }));
  const summary = await screen.findByRole('dialog', { name: 'Payment Summary' });
  await first.user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
  await waitFor(() => expect(browserNavigation.assign).toHaveBeenCalled());
  cleanup();

  // Back from the gateway: only this browser's storage remains. One place is left now: both children are still there.
  server.use(
    listWith(undefined),
    http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('cancelled', { payment: { id, status: 'cancelled', amount: 12000, reference: 'BK-2026-0001', method: null } })))),
  );
  const user = setup();
  renderApp(
    <Routes>
      <Route path="/" element={<HomePage />} />
      <Route path="/payment/failure" element={<PaymentFailurePage />} />
    </Routes>,
    { route: `/payment/failure?payment_id=${id}&error=payment_cancelled` },
  );
  await user.click(await screen.findByRole('button', { name: 'Book this time again' }));
  const dialog = await screen.findByRole('dialog', { name: 'Booking Details' });
  expect(within(dialog).getByLabelText('How many children are you booking for?')).toHaveValue('2');
  const second = within(dialog).getByRole('group', { name: 'Child 2' });
  expect(within(second).getByLabelText("Child's Name")).toHaveValue('Siti Hajar');
  await waitFor(() => expect(within(second).getByLabelText('Year or Grade Applied For')).toHaveValue('Year 1'));
});
