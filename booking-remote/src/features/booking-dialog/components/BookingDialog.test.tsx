import { setTimeout as realSleep } from 'node:timers/promises';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { BOOKING_STORAGE_KEY, brand, PAYMENT_KEY_HEADER, PAYMENT_KEYS_STORAGE_KEY } from 'shared-api';
import { privacyNotice } from 'shared-api/privacy';
import { schoolYears } from 'shared-api/schools';
import { activateLocale } from 'shared-ui';
import { browserNavigation } from '../../../lib/browserNavigation';
import HomePage from '../../../pages/HomePage';
import { axe } from '../../../test/axe';
import { fail, HOLD_TOKEN, legacyList, ok, paymentSession, paymentStatusResult, publicSlot, CONSENT_BOX } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, holdLimitedResponse, holdLimitedRoute, proofIsValid, server, startMswServer, statusAnswer } from '../../../test/server';

startMswServer();

// Wednesday 25 November 2026, 10:00 in GMT+8; the default list has one slot on Thursday 26th at 09:00.
const NOW = new Date('2026-11-25T10:00:00+08:00');
const [primary, secondary, international] = brand.schools;

let assign: jest.SpyInstance;
let reload: jest.SpyInstance;

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  window.localStorage.clear();
  assign = jest.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
  reload = jest.spyOn(browserNavigation, 'reload').mockImplementation(() => {});
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

const setup = () => userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
type User = ReturnType<typeof setup>;

async function openDialog(user: User) {
  const view = renderApp(<HomePage />);
  const table = await screen.findByRole('table', { name: 'This week' });
  await user.click(within(table).getByRole('button', { name: '9:00 AM, Thursday 26 November 2026' }));
  const dialog = await screen.findByRole('dialog', { name: 'Booking Details' });
  return { ...view, dialog };
}

async function fillDetails(user: User, dialog: HTMLElement, school = secondary.name) {
  await user.type(within(dialog).getByLabelText('Visitor Name'), '  Aisyah Rahman ');
  await user.type(within(dialog).getByLabelText('Email Address'), ' Aisyah@Example.com');
  await user.type(within(dialog).getByLabelText('Contact Number'), '012 345 6789');
  await screen.findByRole('option', { name: `${school} – RM ${school === secondary.name ? 75 : school === primary.name ? 50 : 100}` });
  await user.selectOptions(within(dialog).getByLabelText('Selected School'), school);
  await fillChild(user, dialog, "Child's Name", 'Year or Grade Applied For', school);
}

/** The child's name and the school's first year (issue 24), with the labels of the page's language; then the consent (issue 28). */
async function fillChild(user: User, dialog: HTMLElement, nameLabel: string, yearLabel: string, school: string) {
  await user.type(within(dialog).getByLabelText(nameLabel), 'Nur Iman');
  await user.selectOptions(within(dialog).getByLabelText(yearLabel), schoolYears(school)[0].name);
  await user.click(within(dialog).getByRole('checkbox', CONSENT_BOX));
}

/** Opens the dialog, fills in valid details and presses Continue to Payment. */
async function continueWithDetails() {
  const user = setup();
  const { dialog } = await openDialog(user);
  await fillDetails(user, dialog);
  await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
  return { user, dialog };
}

async function toPaymentSummary(user: User) {
  const opened = await openDialog(user);
  await fillDetails(user, opened.dialog);
  await user.click(within(opened.dialog).getByRole('button', { name: 'Continue to Payment' }));
  const summary = await screen.findByRole('dialog', { name: 'Payment Summary' });
  return { ...opened, summary };
}

/** The browser shows the page again from its back-forward cache (`persisted`), as after Back from the gateway; a fresh load is not. */
function pageShown(persisted: boolean) {
  const event = new Event('pageshow');
  Object.defineProperty(event, 'persisted', { value: persisted });
  act(() => {
    window.dispatchEvent(event);
  });
}

/** Proceeds to payment, waits for the browser to be sent to the checkout, and comes back to the page with Back. */
async function payAndComeBack(user: User, summary: HTMLElement) {
  await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
  const processing = await screen.findByRole('dialog', { name: 'Processing Payment' });
  await waitFor(() => expect(assign).toHaveBeenCalled());
  pageShown(true);
  return processing;
}

/** Counts the payment status requests, keeps the payment key each carried, and answers each with `answer()`. */
function countStatusCalls(answer: () => Response) {
  const calls = { count: 0, keys: [] as Array<string | null> };
  server.use(
    http.get(apiUrl('/api/payment/status/:id'), ({ request }) => {
      calls.count += 1;
      calls.keys.push(request.headers.get(PAYMENT_KEY_HEADER));
      return answer();
    }),
  );
  return calls;
}

/** Records each payment cancel: the payment id and the payment key it carried (only the browser that paid has it). */
function recordCancels() {
  const cancels: Array<{ id: string; key: string | null }> = [];
  server.use(
    http.post(apiUrl('/api/payment/:id/cancel'), ({ params, request }) => {
      cancels.push({ id: String(params.id), key: request.headers.get(PAYMENT_KEY_HEADER) });
      return HttpResponse.json(ok(null));
    }),
  );
  return cancels;
}

/** Records the JSON bodies posted to a path. */
function recordPosts(path: string, respond: () => Response = () => HttpResponse.json(ok(null))) {
  const bodies: unknown[] = [];
  server.use(
    http.post(apiUrl(path), async ({ request }) => {
      bodies.push(await request.json().catch(() => null));
      return respond();
    }),
  );
  return bodies;
}

describe('Booking dialog: details step', () => {
  it('opens on a slot with every field, the placeholder and school prices from the server', async () => {
    server.use(
      http.get(apiUrl('/api/payment/pricing'), () =>
        HttpResponse.json(ok({ pricing: brand.schools.map((s, i) => ({ schoolName: s.name, totalFee: i === 2 ? 12050 : s.feeSen })) })),
      ),
    );
    const user = setup();
    const { dialog } = await openDialog(user);
    expect(within(dialog).getByText('Thursday 26 November 2026, 9:00 AM (GMT+8)')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Visitor Name')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email Address')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Contact Number')).toHaveAttribute('placeholder', '01X-XXX XXXX');
    expect(await within(dialog).findByRole('option', { name: `${international.name} – RM 120.50` })).toBeInTheDocument();
    expect(within(dialog).getByRole('option', { name: `${primary.name} – RM 50` })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Continue to Payment' })).toBeInTheDocument();
  });

  it('falls back to the configured fees when pricing fails', async () => {
    server.use(http.get(apiUrl('/api/payment/pricing'), () => HttpResponse.json(fail('down'), { status: 500 })));
    const user = setup();
    const { dialog } = await openDialog(user);
    await act(() => jest.advanceTimersByTimeAsync(10));
    expect(within(dialog).getByRole('option', { name: `${primary.name} – RM 50` })).toBeInTheDocument();
    expect(within(dialog).getByRole('option', { name: `${secondary.name} – RM 75` })).toBeInTheDocument();
    expect(within(dialog).getByRole('option', { name: `${international.name} – RM 100` })).toBeInTheDocument();
    expect(await within(dialog).findByText('Failed to get pricing. Showing the standard fees.')).toBeInTheDocument();
  });

  it('refetches pricing on every opening', async () => {
    let calls = 0;
    server.use(
      http.get(apiUrl('/api/payment/pricing'), () => {
        calls += 1;
        return HttpResponse.json(ok({ pricing: [{ schoolName: international.name, totalFee: 9000 + calls }] }));
      }),
    );
    const user = setup();
    const { dialog } = await openDialog(user);
    expect(await within(dialog).findByRole('option', { name: `${international.name} – RM 90.01` })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const table = screen.getByRole('table', { name: 'This week' });
    await user.click(within(table).getByRole('button', { name: /^9:00 AM/ }));
    const reopened = await screen.findByRole('dialog', { name: 'Booking Details' });
    expect(await within(reopened).findByRole('option', { name: `${international.name} – RM 90.02` })).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('on submit shows each field’s rule inline and the first as one toast, the same words, and reserves nothing', async () => {
    const reserves = recordPosts('/slot/:id/reserve');
    const user = setup();
    const { dialog } = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
    expect(await within(dialog).findByText('Name must be at least 2 characters', { selector: 'span' })).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter a valid email address', { selector: 'span' })).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter a valid phone number (8-15 digits)', { selector: 'span' })).toBeInTheDocument();
    expect(within(dialog).getByText('Please select a school', { selector: 'span' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Visitor Name')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText("Child's name must be at least 2 characters", { selector: 'span' })).toBeInTheDocument();
    // Six rules broken, one toast: the first in the form's order, where focus is, in the words of its inline error.
    expect(await screen.findByText('Name must be at least 2 characters', { selector: 'li *' })).toBeInTheDocument();
    expect(screen.queryByText('Please enter a valid email address', { selector: 'li *' })).not.toBeInTheDocument();
    expect(screen.getByText('Please select the year or grade applied for', { selector: 'span' })).toBeInTheDocument();
    expect(reserves).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Booking Details' })).toBeInTheDocument();
  });

  it('toasts a too-short name, a bad email and a short phone with their exact words', async () => {
    const user = setup();
    const { dialog } = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Visitor Name'), 'A');
    await user.type(within(dialog).getByLabelText('Email Address'), 'a@b');
    await user.type(within(dialog).getByLabelText('Contact Number'), '0123 456');
    await user.selectOptions(within(dialog).getByLabelText('Selected School'), primary.name);
    await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findAllByText('Name must be at least 2 characters')).not.toHaveLength(0);
    expect(screen.getAllByText('Please enter a valid email address')).not.toHaveLength(0);
    expect(screen.getAllByText('Please enter a valid phone number (8-15 digits)')).not.toHaveLength(0);
  });

  it('reserves the slot for 15 minutes, keeps the token and shows the payment summary', async () => {
    const reserves = recordPosts('/slot/:id/reserve', () =>
      HttpResponse.json(ok({ slotId: 1, token: 'hold-token-0123456789abcdef', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() })),
    );
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    expect(reserves).toEqual([{ minutes: 15 }]);
    expect(within(summary).getByText('Aisyah Rahman')).toBeInTheDocument();
    expect(within(summary).getByText(secondary.name)).toBeInTheDocument();
    expect(within(summary).getByText('Thursday 26 November 2026, 9:00 AM (GMT+8)')).toBeInTheDocument();
    expect(within(summary).getByText('RM 75')).toBeInTheDocument();
    expect(within(summary).getByText(/^This slot is reserved for you for 15 minutes, until \d{1,2}:\d{2} [AP]M \(GMT\+8\), while you complete payment\.$/)).toBeInTheDocument();
    const draft = JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) ?? '{}');
    expect(draft.reservedSlot).toMatchObject({ slotId: 1, token: 'hold-token-0123456789abcdef', duration: 15 });
    expect(draft.currentBooking).toMatchObject({ visitorEmail: 'aisyah@example.com', visitorContactNo: '0123456789', fee: 7500 });
  });

  it('takes a Malaysian number in the international form and a name with hidden direction marks, and keeps them as the server stores them', async () => {
    recordPosts('/slot/:id/reserve', () =>
      HttpResponse.json(ok({ slotId: 1, token: 'hold-token-0123456789abcdef', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() })),
    );
    const user = setup();
    const { dialog } = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Visitor Name'), 'Aisyah\u202E Rahman\u200B');
    await user.type(within(dialog).getByLabelText('Email Address'), 'aisyah@example.com');
    await user.type(within(dialog).getByLabelText('Contact Number'), '+60 12-345 6789');
    await screen.findByRole('option', { name: `${primary.name} – RM 50` });
    await user.selectOptions(within(dialog).getByLabelText('Selected School'), primary.name);
    await fillChild(user, dialog, "Child's Name", 'Year or Grade Applied For', primary.name);
    await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
    const summary = await screen.findByRole('dialog', { name: 'Payment Summary' });
    expect(within(summary).getByText('Aisyah Rahman')).toBeInTheDocument();
    const draft = JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) ?? '{}');
    expect(draft.currentBooking).toMatchObject({ visitorName: 'Aisyah Rahman', visitorContactNo: '0123456789' });
  });

  it('a time booked by someone else while the parent types: said in the dialog within seconds, with what is typed kept and the nearest free times', async () => {
    const later = [
      publicSlot({ id: 2, date: '2026-11-26', startTime: '10:00', endTime: '10:30' }),
      publicSlot({ id: 3, date: '2026-11-27', startTime: '09:00', endTime: '09:30' }),
    ];
    let booked = false;
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList(booked ? later : [publicSlot(), ...later]))));
    const user = setup();
    const { dialog } = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Visitor Name'), 'Aisyah Rahman');
    await user.click(within(dialog).getByRole('checkbox', CONSENT_BOX));
    // Another parent books 9:00; the open dialog's list is read again within seconds (no Continue pressed).
    booked = true;
    await act(async () => {
      await jest.advanceTimersByTimeAsync(6_000);
    });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This slot is not available. Please select another slot.');
    expect(within(dialog).getByLabelText('Visitor Name')).toHaveValue('Aisyah Rahman');
    expect(within(dialog).queryByRole('button', { name: 'Continue to Payment' })).not.toBeInTheDocument();
    // The timetable behind follows: 9:00 is no longer offered.
    expect(screen.queryByRole('button', { name: '9:00 AM, Thursday 26 November 2026' })).not.toBeInTheDocument();
    const near = within(dialog).getAllByRole('button', { name: /\(GMT\+8\)$/ });
    expect(near.map((b) => b.textContent)).toEqual(['Thursday 26 November 2026, 10:00 AM (GMT+8)', 'Friday 27 November 2026, 9:00 AM (GMT+8)']);
    // Typed after the notice, and still kept on the time chosen next.
    await user.type(within(dialog).getByLabelText('Email Address'), 'aisyah@example.com');
    await user.click(near[0]);
    const again = await screen.findByRole('dialog', { name: 'Booking Details' });
    await waitFor(() => expect(within(again).getByText('Thursday 26 November 2026, 10:00 AM (GMT+8)')).toBeInTheDocument());
    expect(within(again).getByLabelText('Visitor Name')).toHaveValue('Aisyah Rahman');
    expect(within(again).getByLabelText('Email Address')).toHaveValue('aisyah@example.com');
    expect(within(again).getByRole('checkbox', CONSENT_BOX)).toBeChecked();
  });

  it.each([
    ['SLOT_RESERVED', 'This slot is currently reserved. Please wait a few minutes or select another slot.'],
    ['SLOT_NOT_AVAILABLE', 'This slot is not available. Please select another slot.'],
  ])('a time taken meanwhile (%s): said once in the dialog, which keeps everything typed and offers the nearest free times', async (code, text) => {
    server.use(
      http.post(apiUrl('/slot/:id/reserve'), () => HttpResponse.json(fail(text, code), { status: 409 })),
      // Other free times that week: the nearest ones are offered.
      http.get(apiUrl('/public/list'), () =>
        HttpResponse.json(
          legacyList([
            publicSlot(),
            publicSlot({ id: 2, date: '2026-11-26', startTime: '10:00', endTime: '10:30' }),
            publicSlot({ id: 3, date: '2026-11-27', startTime: '09:00', endTime: '09:30' }),
          ]),
        ),
      ),
    );
    const { user, dialog } = await continueWithDetails();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(text);
    // Once: in place, not also as a toast.
    expect(screen.getAllByText(text)).toHaveLength(1);
    expect(within(dialog).getByLabelText('Visitor Name')).toHaveValue('  Aisyah Rahman ');
    expect(within(dialog).queryByRole('button', { name: 'Continue to Payment' })).not.toBeInTheDocument();
    const near = await within(dialog).findAllByRole('button', { name: /\(GMT\+8\)$/ });
    // Nearest first: the same day an hour later, then the next morning; never the time that went.
    expect(near.map((b) => b.textContent)).toEqual(['Thursday 26 November 2026, 10:00 AM (GMT+8)', 'Friday 27 November 2026, 9:00 AM (GMT+8)']);
    // Choosing one opens the dialog on it with the details and the consent kept.
    const chosen = near[0].textContent!;
    await user.click(near[0]);
    const again = await screen.findByRole('dialog', { name: 'Booking Details' });
    await waitFor(() => expect(within(again).getByText(chosen)).toBeInTheDocument());
    expect(within(again).getByLabelText('Visitor Name')).toHaveValue('Aisyah Rahman');
    expect(within(again).getByLabelText('Contact Number')).toHaveValue('012-345 6789');
    expect(within(again).getByRole('checkbox', CONSENT_BOX)).toBeChecked();
    expect(within(again).getByRole('button', { name: 'Continue to Payment' })).toBeInTheDocument();
  });

  it('a time taken meanwhile (409 WAITLIST_FIRST: offered to the waitlist first) offers the waitlist with the details typed', async () => {
    const text = 'This slot is being offered to parents on the waitlist first. Please choose another time or join the waitlist.';
    server.use(http.post(apiUrl('/slot/:id/reserve'), () => HttpResponse.json(fail(text, 'WAITLIST_FIRST'), { status: 409 })));
    const { user, dialog } = await continueWithDetails();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(text);
    await user.click(within(dialog).getByRole('button', { name: 'Join the waitlist for this day' }));
    const form = await screen.findByRole('dialog', { name: 'Join the waitlist' });
    expect(within(form).getByLabelText('Visitor Name')).toHaveValue('Aisyah Rahman');
    expect(within(form).getByLabelText('Selected School')).toHaveValue(secondary.name);
  });

  it('held as long as one visitor may (429 HOLD_TIME_USED): said in the dialog, other times offered, no waitlist (the time is free)', async () => {
    const text = 'You have held this slot for as long as one visitor may (30 minutes within 2 hours). Please choose another slot, or try this one again later.';
    server.use(http.post(apiUrl('/slot/:id/reserve'), () => HttpResponse.json(fail(text, 'HOLD_TIME_USED'), { status: 429, headers: { 'retry-after': '3600' } })));
    const { dialog } = await continueWithDetails();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(text);
    expect(within(dialog).queryByRole('button', { name: 'Join the waitlist for this day' })).not.toBeInTheDocument();
  });

  it('stays on details with a toast when reserving fails otherwise', async () => {
    server.use(http.post(apiUrl('/slot/:id/reserve'), () => HttpResponse.json(fail('boom', 'INTERNAL'), { status: 500 })));
    await continueWithDetails();
    expect(await screen.findByText('Failed to reserve slot. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Booking Details' })).toBeInTheDocument();
  });
});

/** Solving a challenge takes real time: the solver's own clock (performance.now) runs for real; the fixed clock stays. */
const realSolverClock = () => jest.useFakeTimers({ now: NOW, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate', 'performance'] });

/** `find` retried until it succeeds or `realMs` of real time have passed, letting the solver's WebCrypto calls finish in between. */
async function findWhileSolving<T>(find: () => Promise<T>, realMs = 20_000): Promise<T> {
  const until = performance.now() + realMs;
  for (;;) {
    try {
      return await find();
    } catch (error) {
      if (performance.now() > until) throw error;
    }
    await act(() => realSleep(10));
  }
}

describe('Booking dialog: hold limits (many slots held from one connection)', () => {
  const held = () => HttpResponse.json(ok({ slotId: 1, token: 'hold-token-0123456789abcdef', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }));

  it('answered with a challenge, it checks the connection by itself, reserves with the proof and shows the summary', async () => {
    // Enough work that the "checking" state is on screen for a moment.
    realSolverClock();
    const reserves = holdLimitedRoute('/slot/:id/reserve', held, 30_000);
    const { dialog } = await continueWithDetails();
    expect(await findWhileSolving(() => within(dialog).findByText('Checking your connection…', {}, { timeout: 50 }))).toBeInTheDocument();
    const summary = await findWhileSolving(() => screen.findByRole('dialog', { name: 'Payment Summary' }, { timeout: 50 }));
    expect(within(summary).queryByText('Checking your connection…')).not.toBeInTheDocument();
    expect(reserves).toHaveLength(2);
    expect(reserves[0]).toEqual({ minutes: 15 });
    expect(await proofIsValid(reserves[1].proofOfWork)).toBe(true);
    const draft = JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) ?? '{}');
    expect(draft.reservedSlot).toMatchObject({ slotId: 1, token: 'hold-token-0123456789abcdef' });
  }, 30_000);

  it('a plain 429 (no challenge) shows the server message and stays on the details step', async () => {
    let calls = 0;
    server.use(
      http.post(apiUrl('/slot/:id/reserve'), () => {
        calls += 1;
        return holdLimitedResponse(null);
      }),
    );
    const { dialog } = await continueWithDetails();
    expect(
      await screen.findByText('Too many slots are on hold from your connection. Please finish or cancel a booking in progress, or try again in a few minutes.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Booking Details' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email Address')).toHaveValue('Aisyah@Example.com');
    expect(calls).toBe(1);
  });

  it('initiation answered with a challenge is solved and sent again with the proof, then goes to the checkout', async () => {
    const initiations = holdLimitedRoute('/api/payment/initiate', () =>
      HttpResponse.json(ok({ paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) })),
    );
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('pending')))));
    realSolverClock();
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
    await findWhileSolving(() => waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:4000/sandbox/checkout/pay_123'), { timeout: 50 }));
    expect(initiations).toHaveLength(2);
    expect(initiations[0]).toMatchObject({ holdToken: 'hold-token-0123456789abcdef' });
    expect(initiations[0]).not.toHaveProperty('proofOfWork');
    expect(await proofIsValid(initiations[1].proofOfWork)).toBe(true);
  }, 30_000);
});

describe('Booking dialog: payment summary and processing', () => {
  it('Back to Details keeps the details and the hold; Cancel then releases the slot and clears the draft', async () => {
    const releases = recordPosts('/slot/:id/release');
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await user.click(within(summary).getByRole('button', { name: 'Back to Details' }));
    const details = await screen.findByRole('dialog', { name: 'Booking Details' });
    expect(within(details).getByLabelText('Visitor Name')).toHaveValue('Aisyah Rahman');
    expect(releases).toHaveLength(0);
    await user.click(within(details).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(releases).toEqual([{ token: 'hold-token-0123456789abcdef' }]));
    expect(window.localStorage.getItem(BOOKING_STORAGE_KEY)).toBeNull();
  });

  it('warns when the hold has 2 minutes or less left', async () => {
    server.use(
      http.post(apiUrl('/slot/:id/reserve'), () =>
        HttpResponse.json(ok({ slotId: 1, token: 'hold-token-0123456789abcdef', expiresAt: new Date(Date.now() + 3 * 60_000).toISOString() })),
      ),
    );
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    expect(within(summary).queryByRole('alert')).not.toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(61_000));
    expect(within(summary).getByRole('alert')).toHaveTextContent(/Your reservation expires in 1:5\d\. Please proceed to payment soon\./);
  });

  it('Proceed to Payment initiates with the sanitised details and the hold token, then goes to the checkout URL', async () => {
    const initiations = recordPosts('/api/payment/initiate', () =>
      HttpResponse.json(ok({ paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) })),
    );
    const statusCalls = countStatusCalls(() => HttpResponse.json(ok(paymentStatusResult('processing'))));
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
    const processing = await screen.findByRole('dialog', { name: 'Processing Payment' });
    await waitFor(() => expect(initiations).toHaveLength(1));
    expect(initiations).toEqual([
      {
        slotId: 1,
        visitorName: 'Aisyah Rahman',
        visitorEmail: 'aisyah@example.com',
        visitorContactNo: '0123456789',
        selectedSchool: secondary.name,
        childName: 'Nur Iman',
        childYear: 'Form 1',
        fee: 7500,
        slotDate: '2026-11-26',
        slotStartTime: '09:00',
        preferredPaymentMethod: 'fpx',
        holdToken: 'hold-token-0123456789abcdef',
        // The consent given on the form: the notice in force, as the page showed it (issue 28).
        consent: { noticeVersion: privacyNotice.version, language: 'en', whatsapp: false },
      },
    ]);
    await act(() => jest.advanceTimersByTimeAsync(10));
    expect(assign).toHaveBeenCalledWith('http://localhost:4000/sandbox/checkout/pay_123');
    // While the browser leaves for the gateway, the payment is not asked about (the API checks the gateway once per 5 s).
    expect(within(processing).getByRole('heading', { level: 3, name: 'Redirecting to Payment' })).toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(5_000));
    expect(statusCalls.count).toBe(0);
    expect(JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) ?? '{}')).toMatchObject({ paymentStatus: 'pending' });
    // The payment's key is kept apart from the draft, for the result pages of this browser.
    expect(JSON.parse(window.localStorage.getItem(PAYMENT_KEYS_STORAGE_KEY) ?? '[]')).toEqual([{ paymentId: 'pay_123', reference: 'BK-2026-0001', key: HOLD_TOKEN }]);
    // Back from the gateway, the browser shows this page as it was: now the status is checked and the countdown shows.
    pageShown(true);
    expect(await within(processing).findByRole('heading', { level: 3, name: 'Processing Payment' })).toBeInTheDocument();
    expect(within(processing).getByLabelText(/^Time remaining 1[45]:\d\d$/)).toBeInTheDocument();
    // Then whatever the status check says ('processing' here).
    await waitFor(() =>
      expect(JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) ?? '{}')).toMatchObject({
        paymentStatus: 'processing',
        paymentSession: { paymentId: 'pay_123' },
      }),
    );
    expect(statusCalls.count).toBe(1);
    // Asked with the payment's key: this browser started the payment.
    expect(statusCalls.keys).toEqual([HOLD_TOKEN]);
  });

  it('a page shown afresh is not a return: only Back (the page restored as it was) starts the status checks', async () => {
    const statusCalls = countStatusCalls(() => HttpResponse.json(ok(paymentStatusResult('pending'))));
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
    const processing = await screen.findByRole('dialog', { name: 'Processing Payment' });
    await waitFor(() => expect(assign).toHaveBeenCalled());
    pageShown(false);
    await act(() => jest.advanceTimersByTimeAsync(4_000));
    expect(statusCalls.count).toBe(0);
    expect(within(processing).getByRole('heading', { level: 3, name: 'Redirecting to Payment' })).toBeInTheDocument();
    pageShown(true);
    await waitFor(() => expect(statusCalls.count).toBe(1));
    await act(() => jest.advanceTimersByTimeAsync(2_000));
    expect(statusCalls.count).toBe(2);
  });

  it('a completed status closes the dialog, toasts success and goes to /thankyou', async () => {
    let status: 'pending' | 'completed' = 'pending';
    server.use(http.get(apiUrl('/api/payment/status/:id'), ({ request }) => statusAnswer(request, status)));
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    const processing = await payAndComeBack(user, summary);
    expect(await within(processing).findByRole('heading', { level: 3, name: 'Processing Payment' })).toBeInTheDocument();
    status = 'completed';
    await act(() => jest.advanceTimersByTimeAsync(2_000));
    expect(await screen.findByText('Payment successful! Your booking is confirmed.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/thankyou');
    expect(window.localStorage.getItem(BOOKING_STORAGE_KEY)).toBeNull();
  });

  it('a failed status goes back to the summary, toasts the failure and releases the slot', async () => {
    const releases = recordPosts('/slot/:id/release');
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('failed')))));
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await payAndComeBack(user, summary);
    expect(await screen.findByText('Payment failed. Please try again.')).toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: 'Payment Summary' })).toBeInTheDocument();
    await waitFor(() => expect(releases).toHaveLength(1));
  });

  it("fails with 'Payment session expired' when the session countdown reaches zero", async () => {
    server.use(
      http.post(apiUrl('/api/payment/initiate'), () =>
        HttpResponse.json(ok({ paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 5_000).toISOString() }) })),
      ),
      http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('pending')))),
    );
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await payAndComeBack(user, summary);
    await act(() => jest.advanceTimersByTimeAsync(6_000));
    expect(await screen.findByText('Payment session expired')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Payment Summary' })).toBeInTheDocument();
  });

  it('Cancel while processing returns to details, cancels the payment (with its key) and releases the slot', async () => {
    const releases = recordPosts('/slot/:id/release');
    const cancels = recordCancels();
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('pending')))));
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    const processing = await payAndComeBack(user, summary);
    await within(processing).findByRole('heading', { level: 3, name: 'Processing Payment' });
    await user.click(within(processing).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: 'Booking Details' })).toBeInTheDocument();
    await waitFor(() => expect(cancels).toEqual([{ id: 'pay_123', key: HOLD_TOKEN }]));
    await waitFor(() => expect(releases).toHaveLength(1));
    const draft = JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) ?? '{}');
    expect(draft.reservedSlot).toBeNull();
  });

  it('says so when the payment could not be cancelled, and still releases the slot', async () => {
    const releases = recordPosts('/slot/:id/release');
    server.use(
      http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('pending')))),
      http.post(apiUrl('/api/payment/:id/cancel'), () => HttpResponse.json(fail('Gateway down'), { status: 502 })),
    );
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    const processing = await payAndComeBack(user, summary);
    await within(processing).findByRole('heading', { level: 3, name: 'Processing Payment' });
    await user.click(within(processing).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Payment cancellation failed')).toBeInTheDocument();
    await waitFor(() => expect(releases).toHaveLength(1));
  });

  it('Cancel while the payment is being prepared never leaves for the gateway and gives the session up', async () => {
    const releases = recordPosts('/slot/:id/release');
    const cancels = recordCancels();
    server.use(
      http.post(apiUrl('/api/payment/initiate'), async () => {
        await delay(1_000);
        return HttpResponse.json(ok({ paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) }));
      }),
    );
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
    const processing = await screen.findByRole('dialog', { name: 'Processing Payment' });
    expect(within(processing).getByRole('heading', { level: 3, name: 'Preparing Payment' })).toBeInTheDocument();
    await user.click(within(processing).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: 'Booking Details' })).toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(cancels).toEqual([{ id: 'pay_123', key: HOLD_TOKEN }]));
    expect(releases).toHaveLength(1);
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Booking Details' })).toBeInTheDocument();
  });

  it.each([
    ['SLOT_RESERVED', 'This slot is currently reserved. Please wait a few minutes or select another slot.'],
    ['SLOT_NOT_AVAILABLE', 'This slot is not available. Please select another slot.'],
  ])('initiation answering %s: back at the details with the time gone said there, nothing paid', async (code, text) => {
    server.use(http.post(apiUrl('/api/payment/initiate'), () => HttpResponse.json(fail(text, code), { status: 409 })));
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Booking Details' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(text);
    expect(assign).not.toHaveBeenCalled();
  });

  it('other initiation errors show the server message and return to the summary', async () => {
    server.use(
      http.post(apiUrl('/api/payment/initiate'), () => HttpResponse.json(fail('Gateway is down', 'GATEWAY_ERROR'), { status: 502 })),
    );
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
    expect(await screen.findByText('Gateway is down')).toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: 'Payment Summary' })).toBeInTheDocument();
  });

  it('an initiation error without a message uses the generic text', async () => {
    server.use(http.post(apiUrl('/api/payment/initiate'), () => new HttpResponse(null, { status: 500 })));
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
    expect(await screen.findByText('Payment initiation failed. Please try again.')).toBeInTheDocument();
  });

  it('an answer without a checkout URL is an invalid response', async () => {
    server.use(http.post(apiUrl('/api/payment/initiate'), () => HttpResponse.json(ok({}))));
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await user.click(within(summary).getByRole('button', { name: 'Proceed to Payment' }));
    expect(await screen.findByText('Payment service is temporarily unavailable. Please try again.')).toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: 'Payment Summary' })).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('a status check error shows Payment Error; Retry reloads at most 3 times', async () => {
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(fail('x'), { status: 500 })));
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    const processing = await payAndComeBack(user, summary);
    expect(await within(processing).findByRole('heading', { level: 3, name: 'Payment Error' })).toBeInTheDocument();
    const retry = within(processing).getByRole('button', { name: 'Retry' });
    await user.click(retry);
    await user.click(retry);
    await user.click(retry);
    expect(reload).toHaveBeenCalledTimes(3);
    await user.click(retry);
    expect(reload).toHaveBeenCalledTimes(3);
    expect(await screen.findByText('Maximum retry attempts reached')).toBeInTheDocument();
  });

  it('has no axe violations on the details, summary and processing steps', async () => {
    // axe needs running timers: let the fixed clock advance with real time.
    jest.useFakeTimers({ now: NOW, advanceTimers: true });
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('pending')))));
    const user = userEvent.setup();
    const { dialog } = await openDialog(user);
    expect(await axe(dialog)).toHaveNoViolations();
    await fillDetails(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
    const summary = await screen.findByRole('dialog', { name: 'Payment Summary' });
    expect(await axe(summary)).toHaveNoViolations();
    const processing = await payAndComeBack(user, summary);
    await within(processing).findByRole('heading', { level: 3, name: 'Processing Payment' });
    expect(await axe(processing)).toHaveNoViolations();
  }, 20_000);
});

describe('Booking dialog: focus, toasts, the summary before paying (issue 24)', () => {
  it('opens on the first field, not on Close', async () => {
    const user = setup();
    const { dialog } = await openDialog(user);
    await waitFor(() => expect(within(dialog).getByLabelText('Visitor Name')).toHaveFocus());
  });

  it('a refused submit moves focus to the first invalid field, and its toasts sit in the dialog above its buttons', async () => {
    const user = setup();
    const { dialog } = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Visitor Name'), 'Aisyah Rahman');
    await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Email Address')).toHaveFocus());
    const toast = await within(dialog).findByText('Please enter a valid email address', { selector: 'li *' });
    const continueButton = within(dialog).getByRole('button', { name: 'Continue to Payment' });
    // Laid out before the buttons, inside the dialog: nothing floats over the actions or the fields.
    expect(toast.compareDocumentPosition(continueButton) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(toast.compareDocumentPosition(within(dialog).getByLabelText('Email Address')) & Node.DOCUMENT_POSITION_PRECEDING).toBeTruthy();
  });

  it('the rules\' toasts of a refused submit go once the details are sent again, so none speaks over the summary', async () => {
    const user = setup();
    const { dialog } = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByText('Name must be at least 2 characters', { selector: 'li *' })).toBeInTheDocument();
    await fillDetails(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
    await screen.findByRole('dialog', { name: 'Payment Summary' });
    await waitFor(() => expect(screen.queryByText('Name must be at least 2 characters', { selector: 'li *' })).not.toBeInTheDocument());
    expect(screen.queryByText('Please select a school', { selector: 'li *' })).not.toBeInTheDocument();
  });

  it('the summary lands on its heading, shows where the confirmation and the manage link go, and Change leads back to that field', async () => {
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await waitFor(() => expect(within(summary).getByRole('heading', { name: 'Payment Summary' })).toHaveFocus());
    expect(within(summary).getByText('aisyah@example.com')).toBeInTheDocument();
    // The number as Malaysians write it, not the digits it is stored as.
    expect(within(summary).getByText('012-345 6789')).toBeInTheDocument();
    expect(within(summary).getByText('The confirmation and your link to change or cancel the booking go to this email address.')).toBeInTheDocument();
    // 23 hours ahead: past the cut-off (24 h) already.
    expect(within(summary).getByRole('region', { name: 'Changes and refunds' })).toHaveTextContent(
      'This booking can no longer be changed or cancelled online, and no refund applies.',
    );

    await user.click(within(summary).getByRole('button', { name: 'Change email address' }));
    const details = await screen.findByRole('dialog', { name: 'Booking Details' });
    const email = within(details).getByLabelText('Email Address');
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveValue('aisyah@example.com');
    await user.clear(email);
    await user.type(email, 'aisyah.rahman@example.com');
    await user.click(within(details).getByRole('button', { name: 'Continue to Payment' }));
    const again = await screen.findByRole('dialog', { name: 'Payment Summary' });
    expect(within(again).getByText('aisyah.rahman@example.com')).toBeInTheDocument();
    await user.click(within(again).getByRole('button', { name: 'Change contact number' }));
    await waitFor(() => expect(screen.getByLabelText('Contact Number')).toHaveFocus());
  });

  it.each([
    ['11:00', '11:00 AM, Friday 27 November 2026', 'Full refund if you cancel by Wednesday 25 November 2026, 11:00 AM (GMT+8); after that no refund; changes until Thursday 26 November 2026, 11:00 AM (GMT+8).'],
    ['09:00', '9:00 AM, Friday 27 November 2026', 'No refund if you cancel; changes until Thursday 26 November 2026, 9:00 AM (GMT+8).'],
  ])('the summary says the refund and change terms for the visit (Friday %s)', async (startTime, button, words) => {
    const end = startTime === '11:00' ? '11:30' : '09:30';
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot({ id: 1, date: '2026-11-27', startTime, endTime: end })]))));
    const user = setup();
    renderApp(<HomePage />);
    await user.click(within(await screen.findByRole('table', { name: 'This week' })).getByRole('button', { name: button }));
    const dialog = await screen.findByRole('dialog', { name: 'Booking Details' });
    await fillDetails(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Continue to Payment' }));
    const summary = await screen.findByRole('dialog', { name: 'Payment Summary' });
    expect(within(summary).getByRole('region', { name: 'Changes and refunds' })).toHaveTextContent(words);
  });

  it('a payment cancelled on the gateway says nothing was charged and offers the slot again from the summary', async () => {
    const releases = recordPosts('/slot/:id/release');
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('cancelled')))));
    const user = setup();
    const { summary } = await toPaymentSummary(user);
    await payAndComeBack(user, summary);
    expect(await screen.findByText('You cancelled the payment, and nothing was charged. Press Proceed to Payment to try again.')).toBeInTheDocument();
    expect(screen.queryByText('Payment failed. Please try again.')).not.toBeInTheDocument();
    const back = await screen.findByRole('dialog', { name: 'Payment Summary' });
    expect(within(back).getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled();
    await waitFor(() => expect(releases).toHaveLength(1));
  });
});

describe('Booking dialog in Bahasa Melayu and 中文', () => {
  afterEach(async () => {
    await act(() => activateLocale('en'));
  });

  async function openIn(user: User, table: string, slot: string, title: string) {
    renderApp(<HomePage />);
    await user.click(within(await screen.findByRole('table', { name: table })).getByRole('button', { name: slot }));
    return screen.findByRole('dialog', { name: title });
  }

  /** In Malay: the details of a parent and child filled in for the primary school, and on to the payment summary. */
  async function toSummaryInMalay() {
    await act(() => activateLocale('ms'));
    const user = setup();
    const dialog = await openIn(user, 'Minggu ini', '9:00 pagi, Khamis, 26 November 2026', 'Butiran Tempahan');
    await user.type(within(dialog).getByLabelText('Nama Pelawat'), 'Aisyah Rahman');
    await user.type(within(dialog).getByLabelText('Alamat E-mel'), 'aisyah@example.com');
    await user.type(within(dialog).getByLabelText('Nombor Telefon'), '0123456789');
    await within(dialog).findByRole('option', { name: 'Sekolah Rendah Swasta Seri Ilmu – RM50' });
    await user.selectOptions(within(dialog).getByLabelText('Sekolah Pilihan'), primary.name);
    await fillChild(user, dialog, 'Nama Anak', 'Tahun atau Tingkatan Dipohon', primary.name);
    await user.click(within(dialog).getByRole('button', { name: 'Teruskan ke Bayaran' }));
    return { user, summary: await screen.findByRole('dialog', { name: 'Ringkasan Bayaran' }) };
  }

  it('speaks Malay: labels, school names and fees, rules, the summary, and sends the language with the payment', async () => {
    const initiations = recordPosts('/api/payment/initiate', () =>
      HttpResponse.json(ok({ paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) })),
    );
    await act(() => activateLocale('ms'));
    const user = setup();
    const dialog = await openIn(user, 'Minggu ini', '9:00 pagi, Khamis, 26 November 2026', 'Butiran Tempahan');
    expect(within(dialog).getByText('Khamis, 26 November 2026, 9:00 pagi (GMT+8)')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Nombor Telefon')).toHaveAttribute('placeholder', '01X-XXX XXXX');
    const option = await within(dialog).findByRole('option', { name: 'Sekolah Menengah Swasta Seri Ilmu – RM75' });
    // The parent reads the school in Malay; the form still sends its key, the English name.
    expect(option).toHaveValue(secondary.name);
    expect(within(dialog).getByRole('option', { name: 'Pilih sekolah' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Teruskan ke Bayaran' }));
    expect(await within(dialog).findByText('Nama mestilah sekurang-kurangnya 2 aksara', { selector: 'span' })).toBeInTheDocument();
    expect(within(dialog).getByText('Sila pilih sekolah', { selector: 'span' })).toBeInTheDocument();
    expect(await within(dialog).findByText('Nama anak mestilah sekurang-kurangnya 2 aksara', { selector: 'span' })).toBeInTheDocument();
    // The first rule in the form's order is toasted, in Malay.
    expect(await screen.findByText('Nama mestilah sekurang-kurangnya 2 aksara', { selector: 'li *' })).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Nama Pelawat'), 'Aisyah Rahman');
    await user.type(within(dialog).getByLabelText('Alamat E-mel'), 'aisyah@example.com');
    await user.type(within(dialog).getByLabelText('Nombor Telefon'), '012 345 6789');
    await user.selectOptions(within(dialog).getByLabelText('Sekolah Pilihan'), secondary.name);
    await fillChild(user, dialog, 'Nama Anak', 'Tahun atau Tingkatan Dipohon', secondary.name);
    await user.click(within(dialog).getByRole('button', { name: 'Teruskan ke Bayaran' }));
    const summary = await screen.findByRole('dialog', { name: 'Ringkasan Bayaran' });
    expect(within(summary).getByText('Sekolah Menengah Swasta Seri Ilmu')).toBeInTheDocument();
    expect(within(summary).getByText('Tingkatan 1')).toBeInTheDocument();
    expect(within(summary).getByText('Khamis, 26 November 2026, 9:00 pagi (GMT+8)')).toBeInTheDocument();
    expect(within(summary).getByText('RM75')).toBeInTheDocument();
    expect(within(summary).getByText(/^Slot ini disimpan untuk anda selama 15 minit, sehingga \d{1,2}:\d{2} (pagi|tengah hari|petang|malam) \(GMT\+8\), sementara anda membuat bayaran\.$/)).toBeInTheDocument();
    expect(within(summary).getByText('aisyah@example.com')).toBeInTheDocument();
    expect(within(summary).getByRole('button', { name: 'Tukar alamat e-mel' })).toHaveTextContent('Tukar');
    expect(within(summary).getByRole('region', { name: 'Perubahan dan bayaran balik' })).toHaveTextContent(
      'Tempahan ini tidak lagi boleh diubah atau dibatalkan dalam talian, dan tiada bayaran balik diberikan.',
    );

    await user.click(within(summary).getByRole('button', { name: 'Buat Bayaran' }));
    expect(await screen.findByRole('dialog', { name: 'Memproses Bayaran' })).toBeInTheDocument();
    await waitFor(() => expect(initiations).toHaveLength(1));
    expect(initiations[0]).toMatchObject({ selectedSchool: secondary.name, childName: 'Nur Iman', childYear: 'Form 1', fee: 7500, locale: 'ms' });
  }, 15_000);

  it('speaks Chinese: labels, a rule broken, the summary date and amount, and sends zh with the payment', async () => {
    const initiations = recordPosts('/api/payment/initiate', () =>
      HttpResponse.json(ok({ paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) })),
    );
    await act(() => activateLocale('zh'));
    const user = setup();
    const dialog = await openIn(user, '本周', '2026年11月26日 星期四，上午9:00', '预约资料');
    expect(within(dialog).getByText('2026年11月26日 星期四 上午9:00（GMT+8）')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('访客姓名'), 'A');
    await user.type(within(dialog).getByLabelText('电子邮件地址'), 'wei@example.com');
    await user.type(within(dialog).getByLabelText('联系电话'), '012 345 6789');
    await within(dialog).findByRole('option', { name: 'Seri Ilmu 国际学校 – RM100' });
    await user.selectOptions(within(dialog).getByLabelText('所选学校'), international.name);
    await fillChild(user, dialog, '孩子姓名', '申请就读年级', international.name);
    await user.click(within(dialog).getByRole('button', { name: '继续付款' }));
    expect(await screen.findAllByText('姓名至少需要2个字符')).not.toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('访客姓名'));
    await user.type(within(dialog).getByLabelText('访客姓名'), '陈伟');
    await user.click(within(dialog).getByRole('button', { name: '继续付款' }));
    const summary = await screen.findByRole('dialog', { name: '付款摘要' });
    expect(within(summary).getByText('Seri Ilmu 国际学校')).toBeInTheDocument();
    expect(within(summary).getByText('2026年11月26日 星期四 上午9:00（GMT+8）')).toBeInTheDocument();
    expect(within(summary).getByText('RM100')).toBeInTheDocument();
    expect(within(summary).getByRole('button', { name: '修改联系电话' })).toHaveTextContent('修改');
    expect(within(summary).getByRole('region', { name: '改期与退款' })).toHaveTextContent('此预约已无法在线改期或取消，也不予退款。');
    await user.click(within(summary).getByRole('button', { name: '立即付款' }));
    await waitFor(() => expect(initiations).toHaveLength(1));
    expect(initiations[0]).toMatchObject({ visitorName: '陈伟', selectedSchool: international.name, fee: 10000, locale: 'zh' });
  }, 15_000);

  it("says the server's refusals in Malay by their code, and an unknown message as the server wrote it", async () => {
    let answer = () => HttpResponse.json(fail('Gateway is down', 'GATEWAY_ERROR'), { status: 502 });
    server.use(http.post(apiUrl('/api/payment/initiate'), () => answer()));
    const { user, summary } = await toSummaryInMalay();
    await user.click(within(summary).getByRole('button', { name: 'Buat Bayaran' }));
    expect(await screen.findByText('Perkhidmatan bayaran tidak tersedia buat sementara waktu. Sila cuba lagi.')).toBeInTheDocument();

    answer = () => HttpResponse.json(fail('Something unexpected happened'), { status: 400 });
    await user.click(within(await screen.findByRole('dialog', { name: 'Ringkasan Bayaran' })).getByRole('button', { name: 'Buat Bayaran' }));
    expect(await screen.findByText('Something unexpected happened')).toBeInTheDocument();

    answer = () => HttpResponse.json(fail('This slot is not available. Please select another slot.', 'SLOT_NOT_AVAILABLE'), { status: 409 });
    await user.click(within(await screen.findByRole('dialog', { name: 'Ringkasan Bayaran' })).getByRole('button', { name: 'Buat Bayaran' }));
    expect(await screen.findByText('Slot ini tidak tersedia. Sila pilih slot lain.')).toBeInTheDocument();
    // The dialog stays, at the details, with the ways on in Malay.
    expect(within(screen.getByRole('dialog')).getByText('Semua yang anda taip disimpan: pilih masa lain.')).toBeInTheDocument();
  }, 15_000);

  it('says in Malay that the slot was held as long as one visitor may, in the dialog', async () => {
    server.use(
      http.post(apiUrl('/api/payment/initiate'), () =>
        HttpResponse.json(fail('You have held this slot for as long as one visitor may (30 minutes within 2 hours).', 'HOLD_TIME_USED'), { status: 429 }),
      ),
    );
    const { user, summary } = await toSummaryInMalay();
    await user.click(within(summary).getByRole('button', { name: 'Buat Bayaran' }));
    expect(
      await screen.findByText(
        'Anda telah menyimpan slot ini selama tempoh yang dibenarkan untuk seorang pelawat (30 minit dalam masa 2 jam). Sila pilih slot lain, atau cuba slot ini lagi kemudian.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  }, 15_000);
});
