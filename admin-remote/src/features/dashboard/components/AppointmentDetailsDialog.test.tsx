import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import Cookies from 'js-cookie';
import { DASHBOARD_FILTER_STORAGE_KEY, ErrorCode } from 'shared-api';
import { ManageErrorCode, ManageMessage } from 'shared-api/manage';
import { API, fail } from '../../../test/handlers';
import { addSlot, bookingEvent, db, issueToken, STAFF_EMAIL } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';

setupMswServer();

const REFERENCE = 'BK-2026-0021';

/** Two booked slots; slot #21's booking (BK-2026-0021, RM 100) was booked on Nov 10 and moved by the parent on Nov 12. */
function seed() {
  addSlot({
    id: 21,
    date: '2026-11-24',
    startTime: '09:00',
    endTime: '09:30',
    visitorName: 'Aisyah Rahman',
    visitorEmail: 'aisyah@example.my',
    visitorContactNo: '0123456789',
    selectedSchool: 'Seri Ilmu International',
    bookingReference: REFERENCE,
    amountSen: 10000,
  });
  addSlot({
    id: 22,
    date: '2026-11-25',
    startTime: '10:30',
    endTime: '11:00',
    visitorName: 'Tan Mei Ling',
    visitorEmail: 'meiling@example.my',
    selectedSchool: 'Seri Ilmu Private Primary',
    bookingReference: 'BK-2026-0022',
    amountSen: 5050,
  });
  const booking = db.bookings.find((b) => b.reference === REFERENCE)!;
  booking.history = [
    bookingEvent({ at: '2026-11-10T02:15:00.000Z', kind: 'booked', actor: 'parent' }),
    bookingEvent({
      at: '2026-11-12T06:00:00.000Z',
      kind: 'rescheduled',
      actor: 'parent',
      fromStart: '2026-11-23T01:00:00.000Z',
      toStart: '2026-11-24T01:00:00.000Z',
    }),
  ];
  return booking;
}

const table = () => screen.getByRole('table');
const bodyRows = () => within(table()).getAllByRole('row').slice(1);
const historyItems = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('region', { name: 'History' })).getAllByRole('listitem').map((item) => item.textContent);

async function openDetails(slotId = 21) {
  Cookies.set('token', issueToken(), { path: '/' });
  window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
  const user = userEvent.setup();
  renderAdminApp('/secured/dashboard');
  await user.click(await screen.findByRole('button', { name: `View Details of slot #${slotId}` }));
  const dialog = await screen.findByRole('dialog', { name: 'Appointment Details' });
  await within(dialog).findByRole('region', { name: 'History' });
  return { user, dialog };
}

/** The value beside a label in the details list. */
const detail = (dialog: HTMLElement, label: string) => within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling;

describe('Appointment Details: history, staff move and cancel, one dialog at a time', () => {
  it('shows the status and the history in GMT+8: booked by the parent, then rescheduled from and to', async () => {
    seed();
    const { dialog } = await openDetails();
    expect(detail(dialog, 'Status')).toHaveTextContent('Booked');
    expect(within(dialog).queryByText('Refund', { selector: 'dt' })).not.toBeInTheDocument();
    expect(historyItems(dialog)).toEqual([
      '10 Nov 2026, 10:15 AMBooked and paid by parent',
      '12 Nov 2026, 2:00 PMRescheduled by parent: from 23 Nov 2026, 9:00 AM to 24 Nov 2026, 9:00 AM',
    ]);
    expect(within(dialog).getByText('Times are in GMT+8.')).toBeInTheDocument();
    expect(within(dialog).getByText('10 Nov 2026, 10:15 AM')).toHaveAttribute('dateTime', '2026-11-10T02:15:00.000Z');
    expect(within(dialog).getByRole('button', { name: 'Cancel booking' })).toBeInTheDocument();
    expect(await axe(dialog)).toHaveNoViolations();
  });

  it('shows what the server says when the booking changed since the list loaded: cancelled, refund failing then refunded', async () => {
    const booking = seed();
    booking.state = 'cancelled';
    booking.refund = { amountSen: 10000, state: 'refunded' };
    booking.history.push(
      bookingEvent({ at: '2026-11-13T01:00:00.000Z', kind: 'cancelled', actor: 'parent' }),
      bookingEvent({ at: '2026-11-13T01:00:00.000Z', kind: 'refund_requested', actor: 'parent', amountSen: 10000 }),
      bookingEvent({ at: '2026-11-13T01:05:00.000Z', kind: 'refund_failed', actor: 'system', amountSen: 10000 }),
      bookingEvent({ at: '2026-11-13T01:20:00.000Z', kind: 'refunded', actor: 'system', amountSen: 10000 }),
    );
    const { dialog } = await openDetails();
    expect(detail(dialog, 'Status')).toHaveTextContent('Cancelled');
    expect(detail(dialog, 'Refund')).toHaveTextContent('RM 100 refunded');
    expect(historyItems(dialog).slice(2)).toEqual([
      '13 Nov 2026, 9:00 AMCancelled by parent',
      '13 Nov 2026, 9:00 AMRefund requested by parent: RM 100',
      '13 Nov 2026, 9:05 AMRefund attempt failed (automatic): RM 100',
      '13 Nov 2026, 9:20 AMRefunded (automatic): RM 100',
    ]);
    expect(within(dialog).queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
  });

  it('says a failing refund is retried', async () => {
    const booking = seed();
    booking.state = 'cancelled';
    booking.refund = { amountSen: 10000, state: 'failing' };
    const { dialog } = await openDetails();
    expect(detail(dialog, 'Refund')).toHaveTextContent('RM 100 refund failing');
    expect(detail(dialog, 'Refund')).toHaveTextContent('The refund is retried automatically');
  });

  it('cancels with a refund after confirmation, recorded by the staff email, and refreshes the booking and the list', async () => {
    seed();
    const { user, dialog } = await openDetails();
    await waitFor(() => expect(db.slots.filter((s) => s.isBooked)).toHaveLength(2));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel booking' });
    expect(confirm).toHaveTextContent('Cancel booking BK-2026-0021 of Aisyah Rahman on Tue 24 Nov 2026, 9:00 AM – 9:30 AM?');
    expect(confirm).toHaveTextContent(
      'The slot becomes available to parents again. The parent and the school admin are emailed about the cancellation.',
    );
    const withRefund = within(confirm).getByRole('radio', { name: 'Refund RM 100 to the parent' });
    expect(withRefund).toBeChecked();
    expect(within(confirm).getByRole('radio', { name: 'Cancel without a refund' })).not.toBeChecked();
    expect(within(confirm).getByRole('group', { name: 'Refund' })).toBeInTheDocument();
    expect(await axe(confirm)).toHaveNoViolations();

    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel booking' }));
    expect(await screen.findByText(ManageMessage.staffCancelled)).toBeInTheDocument();
    expect(db.cancelRequests).toEqual([{ reference: REFERENCE, body: { refund: true }, actor: STAFF_EMAIL }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancel booking' })).not.toBeInTheDocument());

    const details = screen.getByRole('dialog', { name: 'Appointment Details' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(details).toHaveTextContent('The booking was cancelled: its status and refund are below.');
    expect(detail(details, 'Status')).toHaveTextContent('Cancelled');
    expect(detail(details, 'Refund')).toHaveTextContent('RM 100 refund pending');
    expect(historyItems(details).slice(2).map((line) => line?.replace(/^.*(AM|PM)/, ''))).toEqual([
      `Cancelled by ${STAFF_EMAIL}`,
      `Refund requested by ${STAFF_EMAIL}: RM 100`,
    ]);
    expect(within(details).queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
    // The button that opened the confirm is gone: focus lands on the new status, not on the page's body.
    await waitFor(() => expect(detail(details, 'Status')).toHaveFocus());

    await user.click(within(details).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The freed slot left the booked list (the list was asked for again).
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'View Details of slot #21' })).not.toBeInTheDocument();
  });

  it('moves the booking to a free upcoming slot chosen by staff, in the same dialog; the details then show its new slot', async () => {
    seed();
    addSlot({ id: 30, date: '2027-01-05', startTime: '10:00', endTime: '10:30' });
    const { user, dialog } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Move booking' }));
    // The move replaces the details: one dialog, one Close, one Move booking button.
    const move = await screen.findByRole('dialog', { name: 'Move booking to another slot' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(within(move).getAllByRole('button', { name: 'Close' })).toHaveLength(1);
    expect(within(move).getAllByRole('button', { name: 'Move booking' })).toHaveLength(1);
    expect(move).toHaveTextContent('The current slot becomes available to parents again. The parent and the school admin are emailed the new time.');
    const select = await within(move).findByRole('combobox', { name: 'New slot' });
    await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.getAttribute('value'))).toContain('30'));
    // Staff plan by the weekday: each free slot names its day.
    expect(within(select).getByRole('option', { name: 'Tue 5 Jan 2027 · 10:00 AM – 10:30 AM' })).toBeInTheDocument();
    expect(within(move).getByRole('button', { name: 'Move booking' })).toBeDisabled();
    expect(await axe(move)).toHaveNoViolations();
    await user.selectOptions(select, '30');
    await user.click(within(move).getByRole('button', { name: 'Move booking' }));
    expect(await screen.findByText(ManageMessage.staffMoved)).toBeInTheDocument();
    expect(db.moveRequests).toEqual([{ reference: REFERENCE, body: { slotId: 30 }, actor: STAFF_EMAIL }]);

    // The details again, with the booking's new slot and the move in its history; focus on the new slot.
    const details = await screen.findByRole('dialog', { name: 'Appointment Details' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(details).toHaveTextContent('The booking was moved: it now has the slot below.');
    expect(detail(details, 'Slot')).toHaveTextContent('#30 · Tue 5 Jan 2027 · 10:00 AM – 10:30 AM');
    await waitFor(() => expect(detail(details, 'Slot')).toHaveFocus());
    await waitFor(() => expect(historyItems(details).at(-1)).toMatch(/from 24 Nov 2026, 9:00 AM to 5 Jan 2027, 10:00 AM$/));
    await user.click(within(details).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list was asked for again: the booking now sits on slot #30, slot #21 is free.
    expect(await screen.findByRole('button', { name: 'View Details of slot #30' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View Details of slot #21' })).not.toBeInTheDocument();
  });

  it('a time with several free seats is one choice in the move list (issue 37)', async () => {
    seed();
    for (const id of [31, 32, 33]) addSlot({ id, date: '2027-01-06', startTime: '11:00', endTime: '11:30' });
    const { user, dialog } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Move booking' }));
    const move = await screen.findByRole('dialog', { name: 'Move booking to another slot' });
    const select = await within(move).findByRole('combobox', { name: 'New slot' });
    await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.getAttribute('value'))).toContain('31'));
    expect(within(select).getAllByRole('option', { name: 'Wed 6 Jan 2027 · 11:00 AM – 11:30 AM' })).toHaveLength(1);
  });

  it('goes back from the move to the details, which are shown as they were, focus on Move booking', async () => {
    seed();
    addSlot({ id: 30, date: '2027-01-05', startTime: '10:00', endTime: '10:30' });
    const { user, dialog } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Move booking' }));
    const move = await screen.findByRole('dialog', { name: 'Move booking to another slot' });
    const select = await within(move).findByRole('combobox', { name: 'New slot' });
    await waitFor(() => expect(within(select).getAllByRole('option').length).toBeGreaterThan(1));
    await user.selectOptions(select, '30');
    await user.click(within(move).getByRole('button', { name: 'Keep current time' }));

    const details = await screen.findByRole('dialog', { name: 'Appointment Details' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(detail(details, 'Slot')).toHaveTextContent('#21 · Tue 24 Nov 2026 · 9:00 AM – 9:30 AM');
    await waitFor(() => expect(within(details).getByRole('button', { name: 'Move booking' })).toHaveFocus());
    expect(db.moveRequests).toEqual([]);

    // A second visit starts afresh: nothing chosen.
    await user.click(within(details).getByRole('button', { name: 'Move booking' }));
    const again = await screen.findByRole('dialog', { name: 'Move booking to another slot' });
    expect(within(again).getByRole('combobox', { name: 'New slot' })).toHaveValue('');
  });

  it('says why a move is refused and keeps the booking where it is', async () => {
    seed();
    addSlot({ id: 31, date: '2027-01-06', startTime: '10:00', endTime: '10:30' });
    server.use(http.post(`${API}/staff/bookings/:reference/move`, () => fail(409, ErrorCode.SLOT_NOT_AVAILABLE, ManageMessage.slotTaken)));
    const { user, dialog } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Move booking' }));
    const move = await screen.findByRole('dialog', { name: 'Move booking to another slot' });
    const select = await within(move).findByRole('combobox', { name: 'New slot' });
    await waitFor(() => expect(within(select).getAllByRole('option').length).toBeGreaterThan(1));
    await user.selectOptions(select, '31');
    await user.click(within(move).getByRole('button', { name: 'Move booking' }));
    expect(await within(move).findByText(ManageMessage.slotTaken)).toBeInTheDocument();
    expect(db.slots.find((s) => s.id === 21)?.bookingReference).toBe(REFERENCE);
  });

  it('cancels without a refund when staff choose so', async () => {
    seed();
    const { user, dialog } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel booking' });
    await user.click(within(confirm).getByRole('radio', { name: 'Cancel without a refund' }));
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel booking' }));
    expect(await screen.findByText(ManageMessage.staffCancelled)).toBeInTheDocument();
    expect(db.cancelRequests).toEqual([{ reference: REFERENCE, body: { refund: false }, actor: STAFF_EMAIL }]);
    const details = screen.getByRole('dialog', { name: 'Appointment Details' });
    await waitFor(() => expect(detail(details, 'Status')).toHaveTextContent('Cancelled'));
    expect(detail(details, 'Refund')).toHaveTextContent('No refund');
    expect(historyItems(details)).toHaveLength(3);
    expect(historyItems(details)[2]).toMatch(new RegExp(`Cancelled by ${STAFF_EMAIL}$`));
  });

  it('Keep booking goes back to the details and cancels nothing', async () => {
    seed();
    const { user, dialog } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel booking' });
    // The confirm replaces the details: one dialog at a time.
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    await user.click(within(confirm).getByRole('button', { name: 'Keep booking' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancel booking' })).not.toBeInTheDocument());
    expect(db.cancelRequests).toEqual([]);
    const details = screen.getByRole('dialog', { name: 'Appointment Details' });
    expect(detail(details, 'Status')).toHaveTextContent('Booked');
    await waitFor(() => expect(within(details).getByRole('button', { name: 'Cancel booking' })).toHaveFocus());
  });

  it("shows the server's refusal in the confirm and reads the booking again (cancelled meanwhile)", async () => {
    const booking = seed();
    const { user, dialog } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel booking' });
    // The parent cancels from the manage link while the confirm is open.
    booking.state = 'cancelled';
    booking.refund = { amountSen: 10000, state: 'refunded' };
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel booking' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(ManageMessage.alreadyCancelled);
    await user.click(within(confirm).getByRole('button', { name: 'Keep booking' }));
    const details = await screen.findByRole('dialog', { name: 'Appointment Details' });
    await waitFor(() => expect(detail(details, 'Status')).toHaveTextContent('Cancelled'));
    expect(detail(details, 'Refund')).toHaveTextContent('RM 100 refunded');
    expect(within(details).queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
  });

  it("says when the history cannot be loaded, with the server's words and Retry", async () => {
    seed();
    let failing = true;
    server.use(
      http.get(`${API}/staff/bookings/:reference`, () => (failing ? fail(500, ErrorCode.INTERNAL, 'Database unavailable') : undefined)),
    );
    Cookies.set('token', issueToken(), { path: '/' });
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const user = userEvent.setup();
    renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('button', { name: 'View Details of slot #21' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appointment Details' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent("Could not load the booking's history");
    expect(alert).toHaveTextContent('Database unavailable');
    expect(dialog).toHaveTextContent('Aisyah Rahman');
    expect(within(dialog).queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByRole('region', { name: 'History' })).toBeInTheDocument();
  });

  it('manages a booking no payment stands behind (a direct booking, the demo data): not paid, no refund offered, moved and cancelled', async () => {
    seed();
    addSlot({ id: 30, date: '2027-01-05', startTime: '10:00', endTime: '10:30' });
    const booking = db.bookings.find((b) => b.reference === REFERENCE)!;
    Object.assign(booking, {
      paymentId: null,
      amountPaidSen: 0,
      history: [bookingEvent({ at: '2026-11-10T02:15:00.000Z', kind: 'booked_unpaid', actor: 'office@seriilmu.edu.my' })],
    });
    const { user, dialog } = await openDetails();
    expect(historyItems(dialog)).toEqual(['10 Nov 2026, 10:15 AMBooked by staff, no payment by office@seriilmu.edu.my']);
    expect(dialog).toHaveTextContent('Not paid (booked by staff)');
    expect(within(dialog).getByRole('button', { name: 'Move booking' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel booking' });
    expect(confirm).toHaveTextContent('Nothing was paid for this booking, so there is nothing to refund.');
    expect(within(confirm).queryByRole('radio')).not.toBeInTheDocument();
    expect(await axe(confirm)).toHaveNoViolations();
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel booking' }));
    expect(await screen.findByText(ManageMessage.staffCancelled)).toBeInTheDocument();
    expect(db.cancelRequests).toEqual([{ reference: REFERENCE, body: { refund: false }, actor: STAFF_EMAIL }]);
  });

  it('says so when nothing is recorded of a booking yet (the demo data)', async () => {
    seed();
    Object.assign(db.bookings.find((b) => b.reference === REFERENCE)!, { paymentId: null, amountPaidSen: 0, history: [] });
    const { dialog } = await openDetails();
    expect(within(dialog).getByRole('region', { name: 'History' })).toHaveTextContent('No changes recorded for this booking yet.');
  });

  it('says the booking is no longer here, without an error, when it changed meanwhile (404)', async () => {
    seed();
    db.bookings = db.bookings.filter((b) => b.reference !== REFERENCE);
    Cookies.set('token', issueToken(), { path: '/' });
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const user = userEvent.setup();
    renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('button', { name: 'View Details of slot #21' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appointment Details' });
    expect(await within(dialog).findByText(/This booking is no longer here/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent('Aisyah Rahman');
  });

  it("says when the bookings for the export cannot be loaded, in the server's words", async () => {
    seed();
    server.use(http.get(`${API}/staff/bookings`, () => fail(503, ErrorCode.INTERNAL, 'The database is not ready yet.')));
    Cookies.set('token', issueToken(), { path: '/' });
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const clicked = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('The database is not ready yet.')).toBeInTheDocument();
    expect(clicked).not.toHaveBeenCalled();
    clicked.mockRestore();
  });
});

describe('Appointment Details for brothers and sisters (issue 37)', () => {
  const adam = { position: 1, childName: 'Adam Firdaus', childYear: 'Form 1', selectedSchool: 'Seri Ilmu Private Secondary', feeSen: 7500, discountSen: 0, amountSen: 7500, cancelled: false, refundSen: null };
  const siti = { position: 2, childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary', feeSen: 5000, discountSen: 500, amountSen: 4500, cancelled: false, refundSen: null };
  /** Booking BK-2026-0021 of two children (RM 120 paid), its first seat #21 being Adam's. */
  function seedSiblings() {
    const booking = seed();
    Object.assign(db.slots.find((s) => s.id === 21)!, { selectedSchool: adam.selectedSchool, childName: adam.childName, childYear: adam.childYear, amountSen: adam.amountSen });
    booking.amountPaidSen = 12000;
    booking.children = [{ ...adam }, { ...siti }];
    return booking;
  }
  const childItems = (dialog: HTMLElement) => within(detail(dialog, 'Children') as HTMLElement).getAllByRole('listitem');

  it('lists each child (name, year, school, share) with the parent named once and the whole payment; no child row of the seat besides', async () => {
    seedSiblings();
    const { dialog } = await openDetails();
    expect(childItems(dialog).map((item) => item.textContent)).toEqual([
      'Adam Firdaus, Form 1, Seri Ilmu Private Secondary: RM 75Move this childCancel this child',
      'Siti Hajar, Year 1, Seri Ilmu Private Primary: RM 45Move this childCancel this child',
    ]);
    expect(within(dialog).getAllByText('Aisyah Rahman')).toHaveLength(1);
    expect(detail(dialog, 'Amount')).toHaveTextContent('RM 120');
    expect(within(dialog).queryByText('Child', { selector: 'dt' })).not.toBeInTheDocument();
    expect(within(dialog).queryByText('School', { selector: 'dt' })).not.toBeInTheDocument();
    expect(await axe(dialog)).toHaveNoViolations();
  });

  it("'Cancel this child' cancels that child alone with their share back, and the details then show them cancelled, the other booked", async () => {
    const booking = seedSiblings();
    // As the server: that child cancelled with their share refunded, the booking still booked.
    server.use(
      http.post(`${API}/staff/bookings/:reference/cancel`, async ({ request }) => {
        const body = (await request.json()) as { refund: boolean; child?: number };
        db.cancelRequests.push({ reference: REFERENCE, body, actor: STAFF_EMAIL });
        booking.children = booking.children!.map((c) => (c.position === body.child ? { ...c, cancelled: true, refundSen: body.refund ? c.amountSen : 0 } : c));
        return HttpResponse.json({ success: true, data: booking, message: 'OK' });
      }),
    );
    const { user, dialog } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel this child: Siti Hajar' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel this child' });
    expect(confirm).toHaveTextContent(
      'Cancel Siti Hajar (Year 1, Seri Ilmu Private Primary) of booking BK-2026-0021 on Tue 24 Nov 2026, 9:00 AM – 9:30 AM? The other children stay booked.',
    );
    expect(within(confirm).getByRole('radio', { name: 'Refund RM 45 to the parent' })).toBeChecked();
    expect(within(confirm).getByRole('radio', { name: 'Cancel without a refund' })).not.toBeChecked();
    expect(await axe(confirm)).toHaveNoViolations();
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel this child' }));

    expect(await screen.findByText("Siti Hajar's visit cancelled.")).toBeInTheDocument();
    expect(db.cancelRequests).toEqual([{ reference: REFERENCE, body: { refund: true, child: 2 }, actor: STAFF_EMAIL }]);
    const details = await screen.findByRole('dialog', { name: 'Appointment Details' });
    expect(details).toHaveTextContent("Siti Hajar's visit was cancelled; the other children stay booked.");
    expect(childItems(details).map((item) => item.textContent)).toEqual([
      'Adam Firdaus, Form 1, Seri Ilmu Private Secondary: RM 75',
      'Siti Hajar, Year 1, Seri Ilmu Private Primary: RM 45 · Cancelled · RM 45 refunded',
    ]);
    // Adam is the last child booked: cancelling him is cancelling the booking.
    expect(within(details).queryByRole('button', { name: /^Cancel this child/ })).not.toBeInTheDocument();
    expect(detail(details, 'Status')).toHaveTextContent('Booked');
  });

  it("Back from a child's cancel returns to that child's button; without a refund it sends refund false and shows a refusal", async () => {
    seedSiblings();
    server.use(
      http.post(`${API}/staff/bookings/:reference/cancel`, async ({ request }) => {
        db.cancelRequests.push({ reference: REFERENCE, body: await request.json(), actor: STAFF_EMAIL });
        return fail(409, ManageErrorCode.CHANGE_CLOSED, ManageMessage.alreadyCancelled);
      }),
    );
    const { user, dialog } = await openDetails();
    const adamButton = within(dialog).getByRole('button', { name: 'Cancel this child: Adam Firdaus' });
    await user.click(adamButton);
    let confirm = await screen.findByRole('dialog', { name: 'Cancel this child' });
    await user.click(within(confirm).getByRole('button', { name: 'Keep this child' }));
    const details = await screen.findByRole('dialog', { name: 'Appointment Details' });
    await waitFor(() => expect(within(details).getByRole('button', { name: 'Cancel this child: Adam Firdaus' })).toHaveFocus());

    await user.click(within(details).getByRole('button', { name: 'Cancel this child: Adam Firdaus' }));
    confirm = await screen.findByRole('dialog', { name: 'Cancel this child' });
    await user.click(within(confirm).getByRole('radio', { name: 'Cancel without a refund' }));
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel this child' }));
    expect(await within(confirm).findByText(ManageMessage.alreadyCancelled)).toBeInTheDocument();
    expect(db.cancelRequests).toEqual([{ reference: REFERENCE, body: { refund: false, child: 1 }, actor: STAFF_EMAIL }]);
  });

  it("'Move this child' moves that child alone to the chosen time; the details then give her own time, the booking's slot unchanged", async () => {
    seedSiblings();
    addSlot({ id: 30, date: '2027-01-05', startTime: '10:00', endTime: '10:30' });
    const { user, dialog } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Move this child: Siti Hajar' }));
    const move = await screen.findByRole('dialog', { name: 'Move Siti Hajar to another time' });
    expect(move).toHaveTextContent('Only Siti Hajar moves; the other children stay at their time.');
    const select = await within(move).findByRole('combobox', { name: 'New slot' });
    await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.getAttribute('value'))).toContain('30'));
    expect(await axe(move)).toHaveNoViolations();
    await user.selectOptions(select, '30');
    await user.click(within(move).getByRole('button', { name: 'Move booking' }));

    expect(await screen.findByText('Siti Hajar moved.')).toBeInTheDocument();
    expect(db.moveRequests).toEqual([{ reference: REFERENCE, body: { slotId: 30, child: 2 }, actor: STAFF_EMAIL }]);
    const details = await screen.findByRole('dialog', { name: 'Appointment Details' });
    expect(details).toHaveTextContent('Siti Hajar was moved; the other children stay at their time.');
    expect(childItems(details).map((item) => item.textContent)).toEqual([
      'Adam Firdaus, Form 1, Seri Ilmu Private Secondary: RM 75Move this childCancel this child',
      'Siti Hajar, Year 1, Seri Ilmu Private Primary: RM 45 · at Tue 5 Jan 2027, 10:00 AM – 10:30 AMMove this childCancel this child',
    ]);
    // The booking stays on Adam's slot; the history names who moved.
    expect(detail(details, 'Slot')).toHaveTextContent('#21');
    await waitFor(() => expect(detail(details, 'Children')).toHaveFocus());
    await waitFor(() => expect(historyItems(details).at(-1)).toMatch(/Siti Hajar, from 24 Nov 2026, 9:00 AM to 5 Jan 2027, 10:00 AM$/));
    expect(await axe(details)).toHaveNoViolations();
  });

  it("Back from a child's move returns to that child's Move button; the whole booking's Move is not for one child", async () => {
    seedSiblings();
    const { user, dialog } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Move this child: Adam Firdaus' }));
    const move = await screen.findByRole('dialog', { name: 'Move Adam Firdaus to another time' });
    await user.click(within(move).getByRole('button', { name: 'Keep current time' }));
    const details = await screen.findByRole('dialog', { name: 'Appointment Details' });
    await waitFor(() => expect(within(details).getByRole('button', { name: 'Move this child: Adam Firdaus' })).toHaveFocus());
    await user.click(within(details).getByRole('button', { name: 'Move booking' }));
    expect(await screen.findByRole('dialog', { name: 'Move booking to another slot' })).toBeInTheDocument();
  });

  it('Cancel booking takes every child still booked, refunding their shares; a cancelled child is neither offered nor refunded again', async () => {
    const booking = seedSiblings();
    booking.amountPaidSen = 16500;
    booking.children = [{ ...adam }, { ...siti, cancelled: true, refundSen: 4500 }, { ...siti, position: 3, childName: 'Hana Sofea', amountSen: 4500 }];
    const { user, dialog } = await openDetails();
    expect(within(dialog).queryByRole('button', { name: 'Cancel this child: Siti Hajar' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel this child: Hana Sofea' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel booking' });
    expect(confirm).toHaveTextContent('Every child still booked is cancelled: Adam Firdaus, Hana Sofea.');
    expect(within(confirm).getByRole('radio', { name: 'Refund RM 120 to the parent' })).toBeChecked();
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel booking' }));
    await waitFor(() => expect(db.cancelRequests).toEqual([{ reference: REFERENCE, body: { refund: true }, actor: STAFF_EMAIL }]));
  });
});
