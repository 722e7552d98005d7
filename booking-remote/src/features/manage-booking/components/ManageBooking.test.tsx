import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { brand, ErrorCode, type ManageView } from 'shared-api';
import { ManageErrorCode, ManageMessage } from 'shared-api/manage';
import ManageBookingPage from '../../../pages/ManageBookingPage';
import { axe } from '../../../test/axe';
import { fail, legacyList, MANAGE_TOKEN, manageView, ok, publicSlot } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server, startMswServer } from '../../../test/server';

startMswServer();

// Wednesday 25 November 2026, 10:00 GMT+8; the booking (fixtures) is on Friday 27th at 9:00 AM.
const NOW = new Date('2026-11-25T10:00:00+08:00');
// The clock runs on from NOW (axe and the dialogs' timers need it to move); nothing here waits on it.
beforeEach(() => jest.useFakeTimers({ now: NOW, advanceTimers: true }));
afterEach(() => jest.useRealTimers());

const setup = () => userEvent.setup();
const render = () => renderApp(<ManageBookingPage />, { route: `/booking/manage/${MANAGE_TOKEN}`, path: '/booking/manage/:token' });

/** The server's answers for this booking: GET gives `view` (changeable by the test), each GET is counted. */
function bookingServer(initial: ManageView = manageView()) {
  const state = { view: initial, gets: 0 };
  server.use(
    http.get(apiUrl('/api/booking/manage/:token'), ({ params }) => {
      state.gets += 1;
      if (params.token !== MANAGE_TOKEN) return HttpResponse.json(fail(ManageMessage.invalidLink, ManageErrorCode.MANAGE_LINK_INVALID), { status: 404 });
      return HttpResponse.json(ok(state.view, 'Booking found'));
    }),
  );
  return state;
}

// Moved to Friday 27th at 11:00 AM GMT+8 (changeable until Thursday 11:00 AM).
const movedView = manageView({
  start: '2026-11-27T03:00:00.000Z',
  end: '2026-11-27T03:30:00.000Z',
  changeDeadline: '2026-11-26T03:00:00.000Z',
  terms: { refunds: [], changesUntil: '2026-11-26T03:00:00.000Z', now: '2026-11-25T02:00:00.000Z' },
});

describe('/booking/manage/:token', () => {
  it('shows the booking in GMT+8 with what to bring, the calendar links and the refund and change terms', async () => {
    bookingServer();
    const { container } = render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Manage your booking' })).toBeInTheDocument();
    expect(await screen.findByText('BK-2026-0001')).toBeInTheDocument();
    // The visit first, headed by the child, with where and when; the payment's facts after it.
    const visit = screen.getByRole('region', { name: 'Assessment visit for Adam Firdaus, Form 1' });
    expect(within(visit).getByText(brand.schools[1].name)).toBeInTheDocument();
    expect(within(visit).getByText('Friday 27 November 2026')).toBeInTheDocument();
    expect(within(visit).getByText('9:00 AM – 9:30 AM (GMT+8)')).toBeInTheDocument();
    expect(within(visit).queryByText('RM 75')).not.toBeInTheDocument();
    expect(visit.compareDocumentPosition(screen.getByText('RM 75')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 })[0]).toBe(within(visit).getByRole('heading'));
    expect(screen.getByText('RM 75')).toBeInTheDocument();
    expect(screen.getByText('Booked and paid')).toBeInTheDocument();
    for (const item of ['Parent/guardian ID', "Student's birth certificate", 'Immunization records', 'Previous academic records']) {
      expect(screen.getByText(item)).toBeInTheDocument();
    }
    // The terms as the server sends them (the fixture's: a full refund until the change deadline).
    expect(screen.getByText('Full refund if you cancel by Thursday 26 November 2026, 9:00 AM (GMT+8); after that no refund; changes until Thursday 26 November 2026, 9:00 AM (GMT+8).')).toBeInTheDocument();
    const google = new URL((await screen.findByRole('link', { name: 'Google Calendar' })).getAttribute('href') as string);
    expect(google.searchParams.get('dates')).toBe('20261127T010000Z/20261127T013000Z');
    const ics = screen.getByRole('link', { name: 'Download .ics file' });
    expect(ics).toHaveAttribute('download', 'assessment-visit.ics');
    expect(decodeURIComponent(ics.getAttribute('href') as string)).toContain('DTSTART;TZID=Asia/Singapore:20261127T090000');
    expect(screen.getByRole('button', { name: 'Change date or time' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel booking' })).toBeEnabled();
    expect(await axe(container)).toHaveNoViolations();
  });

  it('a booking made before the child was asked is headed "Your assessment visit"', async () => {
    bookingServer(manageView({ childName: null, childYear: null }));
    render();
    const visit = await screen.findByRole('region', { name: 'Your assessment visit' });
    expect(within(visit).getByText('Friday 27 November 2026')).toBeInTheDocument();
  });

  it('a refund deadline less than a day away is said on its own, plainly (issue 36); a later one only in the terms', async () => {
    // The full refund ends at 10:15 AM today (15 minutes from NOW).
    bookingServer(manageView({ terms: { refunds: [{ percent: 100, until: '2026-11-25T02:15:00.000Z' }], changesUntil: '2026-11-26T01:00:00.000Z', now: '2026-11-25T02:00:00.000Z' } }));
    render();
    expect(await screen.findByRole('note')).toHaveTextContent('The full refund ends in 15 minutes, at Wednesday 25 November 2026, 10:15 AM (GMT+8).');
  });

  it('a refund deadline a day or more away is not singled out', async () => {
    bookingServer(manageView({ terms: { refunds: [{ percent: 100, until: '2026-11-27T01:00:00.000Z' }], changesUntil: '2026-11-27T01:00:00.000Z', now: '2026-11-25T02:00:00.000Z' } }));
    render();
    await screen.findByRole('heading', { name: /Manage your booking/ });
    await screen.findByText(/Full refund if you cancel by/);
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('after the cut-off says so with the support address, and offers no change', async () => {
    bookingServer(manageView({ canChange: false, cancelQuote: null }));
    const { container } = render();
    expect(await screen.findByText(ManageMessage.tooLate)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: brand.supportEmail })).toHaveAttribute('href', `mailto:${brand.supportEmail}`);
    expect(screen.getByText('BK-2026-0001')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change date or time' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
    expect(screen.queryByText(/changes until/)).not.toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it.each([
    [null, null],
    [{ amountSen: 7500, state: 'pending' as const }, 'Refund of RM 75: being processed'],
    [{ amountSen: 7500, state: 'refunded' as const }, 'Refund of RM 75: refunded'],
    [{ amountSen: 3750, state: 'failing' as const }, 'Refund of RM 37.50: being retried; the school has been told'],
  ])('a cancelled booking shows what was cancelled, its refund and where it stands, and the way to book another time (%j)', async (refund, words) => {
    bookingServer(manageView({ state: 'cancelled', refund, canChange: false, cancelQuote: null }));
    const { container } = render();
    expect(await screen.findByText(ManageMessage.cancelled)).toBeInTheDocument();
    const cancelled = screen.getByRole('region', { name: 'What was cancelled' });
    for (const text of [brand.schools[1].name, 'Friday 27 November 2026', '9:00 AM – 9:30 AM (GMT+8)', 'BK-2026-0001', 'RM 75'])
      expect(within(cancelled).getByText(text)).toBeInTheDocument();
    expect(screen.getByText(words ?? "No refund under the school's refund policy.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Book another time' })).toHaveAttribute('href', '/');
    // Nothing left to change: no buttons, no what-to-bring or calendar.
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByText('Parent/guardian ID')).not.toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it('"Book another time" after a cancel leads to the timetable', async () => {
    bookingServer(manageView({ state: 'cancelled', refund: null, canChange: false, cancelQuote: null }));
    const user = setup();
    render();
    await user.click(await screen.findByRole('link', { name: 'Book another time' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it.each([
    [404, ManageMessage.invalidLink, ManageErrorCode.MANAGE_LINK_INVALID],
    [410, ManageMessage.expiredLink, ManageErrorCode.MANAGE_LINK_EXPIRED],
    [429, ManageMessage.tooManyTries, ErrorCode.RATE_LIMITED],
  ])('a refused link (%i) shows the server message and nothing else', async (status, message, code) => {
    server.use(http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(fail(message, code), { status })));
    const { container } = render();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByText(/BK-/)).not.toBeInTheDocument();
    expect(screen.queryByText('What to bring')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it('a server error offers Try again', async () => {
    let calls = 0;
    server.use(
      http.get(apiUrl('/api/booking/manage/:token'), () => {
        calls += 1;
        return calls === 1 ? HttpResponse.json(fail('Internal error'), { status: 500 }) : HttpResponse.json(ok(manageView()));
      }),
    );
    const user = setup();
    render();
    await user.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByText('BK-2026-0001')).toBeInTheDocument();
  });

  describe('Change date or time', () => {
    const slots = [
      publicSlot({ id: 1, date: '2026-11-26', startTime: '09:00', endTime: '09:30', isBooked: true }),
      publicSlot({ id: 2, date: '2026-11-26', startTime: '10:00', endTime: '10:30' }),
      publicSlot({ id: 3, date: '2026-11-25', startTime: '10:30', endTime: '11:00' }),
      publicSlot({ id: 4, date: '2026-11-27', startTime: '09:00', endTime: '09:30', isBooked: true }),
      publicSlot({ id: 5, date: '2026-11-27', startTime: '11:00', endTime: '11:30' }),
    ];

    function slotServer() {
      const lists = { count: 0 };
      server.use(
        http.get(apiUrl('/public/list'), () => {
          lists.count += 1;
          return HttpResponse.json(legacyList(slots));
        }),
      );
      return lists;
    }

    async function openPicker(user: ReturnType<typeof setup>) {
      await user.click(await screen.findByRole('button', { name: 'Change date or time' }));
      return screen.findByRole('dialog', { name: 'Change date or time' });
    }

    it('lists the free times (same rules as the timetable), then confirms and shows the new time with a toast', async () => {
      const state = bookingServer();
      slotServer();
      const bodies: unknown[] = [];
      server.use(
        http.post(apiUrl('/api/booking/manage/:token/reschedule'), async ({ request }) => {
          bodies.push(await request.json());
          state.view = movedView;
          return HttpResponse.json(ok(movedView, ManageMessage.rescheduled));
        }),
      );
      const user = setup();
      render();
      const dialog = await openPicker(user);
      expect(within(dialog).getByText('Your visit now: Friday 27 November 2026, 9:00 AM (GMT+8). The school and the fee stay the same.')).toBeInTheDocument();
      const thursday = await within(dialog).findByRole('group', { name: 'Thursday 26 November 2026' });
      expect(within(thursday).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['10:00 AM']);
      // 10:30 today is within the 1-hour lead time; booked slots are not offered.
      expect(within(dialog).queryByRole('group', { name: 'Wednesday 25 November 2026' })).not.toBeInTheDocument();
      expect(within(within(dialog).getByRole('group', { name: 'Friday 27 November 2026' })).getByRole('radio', { name: '11:00 AM' })).toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
      expect(await within(dialog).findByText('Please choose a new time.')).toBeInTheDocument();

      // Thursday 10:00 is a free time, but inside the cut-off (24 h): the confirm step says the booking would be final.
      await user.click(within(thursday).getByRole('radio', { name: '10:00 AM' }));
      await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
      let confirm = await screen.findByRole('dialog', { name: 'Confirm the new time' });
      expect(confirm).toHaveTextContent('Move your visit to Thursday 26 November 2026, 10:00 AM (GMT+8)?');
      expect(confirm).toHaveTextContent('After the move: This booking can no longer be changed or cancelled online, and no refund applies.');
      await user.click(within(confirm).getByRole('button', { name: 'Back' }));

      const friday = await screen.findByRole('group', { name: 'Friday 27 November 2026' });
      await user.click(within(friday).getByRole('radio', { name: '11:00 AM' }));
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      confirm = await screen.findByRole('dialog', { name: 'Confirm the new time' });
      expect(confirm).toHaveTextContent('Move your visit to Friday 27 November 2026, 11:00 AM (GMT+8)?');
      expect(confirm).toHaveTextContent('After the move: No refund if you cancel; changes until Thursday 26 November 2026, 11:00 AM (GMT+8).');
      // Later than the booked time: the refund is not counted afresh from the new one.
      expect(confirm).toHaveTextContent('Moving does not move the refund deadline: the refund is still counted from Friday 27 November 2026, 9:00 AM (GMT+8).');
      await user.click(within(confirm).getByRole('button', { name: 'Confirm new time' }));

      expect(await screen.findByText(ManageMessage.rescheduled)).toBeInTheDocument();
      expect(bodies).toEqual([{ slotId: 5 }]);
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByText('Friday 27 November 2026')).toBeInTheDocument();
      expect(screen.getByText('11:00 AM – 11:30 AM (GMT+8)')).toBeInTheDocument();
      expect(screen.queryByText('9:00 AM – 9:30 AM (GMT+8)')).not.toBeInTheDocument();
      expect(screen.getByText('No refund if you cancel; changes until Thursday 26 November 2026, 11:00 AM (GMT+8).')).toBeInTheDocument();
    });

    it('shows the current time in its place among the free times, marked "Your current time" and not selectable', async () => {
      bookingServer();
      slotServer();
      const user = setup();
      render();
      const dialog = await openPicker(user);
      // The booking is Friday 9:00 (its slot is booked, so the list itself leaves it out): it sits before 11:00, in words.
      const friday = await within(dialog).findByRole('group', { name: 'Friday 27 November 2026' });
      const radios = within(friday).getAllByRole('radio');
      expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual(['9:00 AMYour current time', '11:00 AM']);
      const current = within(friday).getByRole('radio', { name: '9:00 AM Your current time' });
      expect(current).toBeDisabled();
      await user.click(current);
      expect(current).not.toBeChecked();
      // Not a choice: Continue still asks for a new time.
      await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
      expect(await within(dialog).findByText('Please choose a new time.')).toBeInTheDocument();
    });

    it('says when a move would end the refund a cancel gives now', async () => {
      // Booked for Wednesday 2 December 9:00: a full refund until Monday 30 November 9:00.
      const far = { start: '2026-12-02T01:00:00.000Z', end: '2026-12-02T01:30:00.000Z', refundFrom: '2026-12-02T01:00:00.000Z', changeDeadline: '2026-12-01T01:00:00.000Z' };
      bookingServer(manageView(far));
      slotServer();
      const user = setup();
      render();
      const dialog = await openPicker(user);
      const thursday = await within(dialog).findByRole('group', { name: 'Thursday 26 November 2026' });
      await user.click(within(thursday).getByRole('radio', { name: '10:00 AM' }));
      await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
      const confirm = await screen.findByRole('dialog', { name: 'Confirm the new time' });
      expect(within(confirm).getByRole('note')).toHaveTextContent('This move ends your refund: cancelling now would give back RM 75; after the move, nothing.');
    });

    it('on 409 (slot just taken) shows the server message, offers a fresh list, and keeps the current booking', async () => {
      bookingServer();
      const lists = slotServer();
      server.use(
        http.post(apiUrl('/api/booking/manage/:token/reschedule'), () =>
          HttpResponse.json(fail(ManageMessage.slotTaken, ErrorCode.SLOT_NOT_AVAILABLE), { status: 409 }),
        ),
      );
      const user = setup();
      render();
      const dialog = await openPicker(user);
      await user.click(await within(dialog).findByRole('radio', { name: '11:00 AM' }));
      await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
      const confirm = await screen.findByRole('dialog', { name: 'Confirm the new time' });
      const listsBefore = lists.count;
      await user.click(within(confirm).getByRole('button', { name: 'Confirm new time' }));

      const picker = await screen.findByRole('dialog', { name: 'Change date or time' });
      expect(within(picker).getByRole('alert')).toHaveTextContent(ManageMessage.slotTaken);
      await waitFor(() => expect(lists.count).toBeGreaterThan(listsBefore));
      expect(within(picker).getByRole('radio', { name: '11:00 AM' })).not.toBeChecked();
      await user.click(within(picker).getByRole('button', { name: 'Keep current time' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByText('Friday 27 November 2026')).toBeInTheDocument();
      expect(screen.getByText('9:00 AM – 9:30 AM (GMT+8)')).toBeInTheDocument();
      expect(screen.queryByText(ManageMessage.rescheduled)).not.toBeInTheDocument();
    });

    it('when the cut-off passed meanwhile, closes and shows the booking as it now is', async () => {
      const state = bookingServer();
      slotServer();
      server.use(
        http.post(apiUrl('/api/booking/manage/:token/reschedule'), () => {
          state.view = manageView({ canChange: false, cancelQuote: null });
          return HttpResponse.json(fail(ManageMessage.tooLate, ManageErrorCode.CHANGE_CLOSED), { status: 409 });
        }),
      );
      const user = setup();
      render();
      const dialog = await openPicker(user);
      await user.click(await within(dialog).findByRole('radio', { name: '11:00 AM' }));
      await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
      await user.click(within(await screen.findByRole('dialog', { name: 'Confirm the new time' })).getByRole('button', { name: 'Confirm new time' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Change date or time' })).not.toBeInTheDocument());
      expect(screen.getAllByText(ManageMessage.tooLate).length).toBeGreaterThan(0);
    });
  });

  describe('Cancel booking', () => {
    it.each([
      [{ percent: 100, amountSen: 7500 }, 'You will get a full refund of RM 75.', 'RM 75'],
      [{ percent: 50, amountSen: 3750 }, 'RM 37.50 (50%) will be refunded.', 'RM 37.50'],
      [{ percent: 0, amountSen: 0 }, 'You paid RM 75. No refund applies if you cancel now.', 'None'],
    ])('names the visit, the amount paid, what comes back (%j) and the policy, before confirming', async (cancelQuote, words, back) => {
      bookingServer(manageView({ cancelQuote }));
      const user = setup();
      render();
      await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
      const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
      expect(dialog).toHaveAccessibleDescription(words);
      // Focus on the question, not on a button: a keyboard user reads what is cancelled first.
      await waitFor(() => expect(within(dialog).getByRole('heading', { name: 'Cancel this booking?' })).toHaveFocus());
      const details = dialog.querySelector('dl') as HTMLElement;
      expect(details).toHaveTextContent(`Visit${brand.schools[1].name}Friday 27 November 2026, 9:00 AM (GMT+8)`);
      expect(details).toHaveTextContent('Amount paidRM 75');
      expect(details).toHaveTextContent(`Refund if you cancel now${back}`);
      expect(within(dialog).getByRole('region', { name: 'Changes and refunds' })).toHaveTextContent('Full refund if you cancel by Thursday 26 November 2026, 9:00 AM (GMT+8); after that no refund; changes until Thursday 26 November 2026, 9:00 AM (GMT+8).');
      await user.click(within(dialog).getByRole('button', { name: 'Keep booking' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByText('BK-2026-0001')).toBeInTheDocument();
    });

    it('cancels at the quoted refund, then shows only the cancellation and its refund', async () => {
      const state = bookingServer();
      const bodies: unknown[] = [];
      server.use(
        http.post(apiUrl('/api/booking/manage/:token/cancel'), async ({ request }) => {
          bodies.push(await request.json());
          state.view = manageView({ state: 'cancelled', canChange: false, cancelQuote: null, refund: { amountSen: 7500, state: 'pending' } });
          return HttpResponse.json(ok(state.view, ManageMessage.cancelledNow));
        }),
      );
      const user = setup();
      const { container } = render();
      await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
      const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
      expect(await axe(container.ownerDocument.body)).toHaveNoViolations();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
      expect(await screen.findByText(ManageMessage.cancelledNow)).toBeInTheDocument();
      expect(bodies).toEqual([{ expectedRefundSen: 7500 }]);
      expect(await screen.findByText(ManageMessage.cancelled)).toBeInTheDocument();
      expect(screen.getByText('Refund of RM 75: being processed')).toBeInTheDocument();
      expect(within(screen.getByRole('region', { name: 'What was cancelled' })).getByText('BK-2026-0001')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Book another time' })).toHaveAttribute('href', '/');
    });

    it('when the refund changed (QUOTE_CHANGED) reloads, says so with the new refund, and confirms at the new amount', async () => {
      const state = bookingServer();
      const bodies: Array<{ expectedRefundSen: number }> = [];
      server.use(
        http.post(apiUrl('/api/booking/manage/:token/cancel'), async ({ request }) => {
          const body = (await request.json()) as { expectedRefundSen: number };
          bodies.push(body);
          if (body.expectedRefundSen !== state.view.cancelQuote?.amountSen) {
            return HttpResponse.json(fail(ManageMessage.quoteChanged, ManageErrorCode.QUOTE_CHANGED), { status: 409 });
          }
          state.view = manageView({ state: 'cancelled', canChange: false, cancelQuote: null, refund: null });
          return HttpResponse.json(ok(state.view, ManageMessage.cancelledNow));
        }),
      );
      const user = setup();
      render();
      await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
      const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
      expect(dialog).toHaveAccessibleDescription('You will get a full refund of RM 75.');
      // The 48-hour mark passes while the dialog is open.
      state.view = manageView({ cancelQuote: { percent: 0, amountSen: 0 } });
      const getsBefore = state.gets;
      await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(ManageMessage.quoteChanged);
      expect(state.gets).toBe(getsBefore + 1);
      expect(dialog).toHaveAccessibleDescription('You paid RM 75. No refund applies if you cancel now.');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
      expect(await screen.findByText(ManageMessage.cancelled)).toBeInTheDocument();
      expect(bodies).toEqual([{ expectedRefundSen: 7500 }, { expectedRefundSen: 0 }]);
    });
  });
});
