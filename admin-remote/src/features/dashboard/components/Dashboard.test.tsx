import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, delay } from 'msw';
import Cookies from 'js-cookie';
import { COPY_CONFIRM_MS, DASHBOARD_FILTER_STORAGE_KEY, ErrorCode, todayInMY } from 'shared-api';
import { inMY } from 'shared-api/time';
import { API, DELETE_HELD_MESSAGE, fail } from '../../../test/handlers';
import { addBooking, addSlot, db, issueToken } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';
import { onPhone } from '../../../test/screenWidth';

setupMswServer();

const XSS_NAME = '<img src=x onerror=alert(1)>';
const inDays = (n: number) => inMY().add(n, 'day').format('YYYY-MM-DD');

function seed() {
  addSlot({ id: 11, date: '2026-11-23', startTime: '08:30', endTime: '09:00' });
  addSlot({ id: 12, date: '2026-11-23', startTime: '13:00', endTime: '13:30' });
  addSlot({ id: 13, date: '2026-11-20', startTime: '10:00', endTime: '10:30' });
  addSlot({
    id: 21,
    date: '2026-11-24',
    startTime: '09:00',
    endTime: '09:30',
    visitorName: 'Aisyah Rahman',
    visitorEmail: 'aisyah@example.my',
    visitorContactNo: '0123456789',
    selectedSchool: 'Seri Ilmu International',
    childName: 'Nur Iman',
    childYear: 'Year 7',
    bookingReference: 'BK-2026-0021',
    amountSen: 10000,
  });
  addSlot({
    id: 22,
    date: '2026-11-25',
    startTime: '10:30',
    endTime: '11:00',
    visitorName: 'Tan Mei Ling',
    visitorEmail: 'meiling@example.my',
    visitorContactNo: null,
    selectedSchool: 'Seri Ilmu Private Primary',
    childName: 'Tan Jia Hui',
    childYear: 'Year 2',
    bookingReference: 'BK-2026-0022',
    amountSen: 5050,
  });
}

function login() {
  Cookies.set('token', issueToken(), { path: '/' });
}

async function openDashboard() {
  login();
  const view = renderAdminApp('/secured/dashboard');
  await screen.findByRole('heading', { name: 'Assessment Dashboard' });
  return view;
}

// Every test runs on a fixed clock before all the seeded slots (Monday 16 November 2026, 08:00 GMT+8), so the
// upcoming-only views and counts do not depend on when the suite runs; tests needing another moment set their own.
const FAKE_CLOCK = { advanceTimers: true, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] as const };
beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-16T00:00:00Z'), ...FAKE_CLOCK, doNotFake: [...FAKE_CLOCK.doNotFake] }));
afterEach(() => jest.useRealTimers());

const table = () => screen.getByRole('table');
const bodyRows = () => within(table()).getAllByRole('row').slice(1);

describe('Assessment Dashboard', () => {
  it('shows the title, subtitle, Refresh and View Timetable, which goes to /', async () => {
    seed();
    const user = userEvent.setup();
    await openDashboard();
    expect(screen.getByText('Manage your assessment time slots and bookings')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View Timetable' }));
    expect(currentPath()).toBe('/');
    expect(screen.getByRole('heading', { name: 'Public timetable' })).toBeInTheDocument();
  });

  it('Refresh asks the server again and shows what changed', async () => {
    seed();
    const user = userEvent.setup();
    await openDashboard();
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    addSlot({ id: 14, date: '2026-11-30', startTime: '15:00', endTime: '15:30' });
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    expect(screen.getByTestId('stat-total')).toHaveTextContent('6');
  });

  it("counts total, booked, available and today's slots (today in GMT+8)", async () => {
    // The clock is fixed on a day none of the seeded slots is on, at 00:30 GMT+8 (still the day before in UTC), so the
    // count is the same whatever the date and time the test runs.
    jest.useFakeTimers({ now: new Date('2026-12-01T16:30:00Z'), advanceTimers: true, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    try {
      expect(todayInMY()).toBe('2026-12-02');
      seed();
      addSlot({ id: 31, date: '2026-12-02', startTime: '16:00', endTime: '16:30' });
      addSlot({ id: 32, date: '2026-12-02', startTime: '16:30', endTime: '17:00', visitorName: 'Today Parent', visitorEmail: 't@example.my' });
      addSlot({ id: 33, date: '2026-12-01', startTime: '16:30', endTime: '17:00' });
      // Today, but already started: past, so no count has it.
      addSlot({ id: 34, date: '2026-12-02', startTime: '00:00', endTime: '00:30' });
      await openDashboard();
      // Total, Available and Today's count what is still ahead (31 and 32, later today); Booked counts every booking.
      await waitFor(() => expect(screen.getByTestId('stat-total')).toHaveTextContent('2'));
      expect(screen.getByTestId('stat-booked')).toHaveTextContent('3');
      expect(screen.getByTestId('stat-available')).toHaveTextContent('1');
      expect(screen.getByTestId('stat-today')).toHaveTextContent('2');
    } finally {
      jest.useRealTimers();
    }
    expect(screen.getByText('Total Slots')).toBeInTheDocument();
    expect(screen.getByText('Booked Slots')).toBeInTheDocument();
    expect(screen.getByText('Available Slots')).toBeInTheDocument();
    expect(screen.getByText("Today's Slots")).toBeInTheDocument();
  });

  it('lists available slots by default: #id, the day with its weekday, 12-hour time, status badge and Delete, with the count in the caption', async () => {
    seed();
    await openDashboard();
    expect(screen.getByText('Showing: Available Slots')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Available' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Booked' })).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(within(table()).getByText('3 available slots found')).toBeInTheDocument();
    const first = bodyRows()[0];
    expect(within(first).getByText('#13')).toBeInTheDocument();
    expect(within(first).getByText('Fri 20 Nov 2026')).toBeInTheDocument();
    expect(within(first).getByText('10:00 AM – 10:30 AM')).toBeInTheDocument();
    expect(within(first).getByText('Available')).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Delete slot #13' })).toBeInTheDocument();
    expect(within(bodyRows()[2]).getByText('1:00 PM – 1:30 PM')).toBeInTheDocument();
    expect(screen.getByText('Deleting a booked slot cancels its booking, so Delete is offered only on available slots.')).toBeInTheDocument();
  });

  it('switches to Booked, keeps the choice in local storage and restores it on the next visit', async () => {
    seed();
    const user = userEvent.setup();
    const { unmount } = await openDashboard();
    await user.click(screen.getByRole('button', { name: 'Booked' }));
    expect(screen.getByText('Showing: Booked Slots')).toBeInTheDocument();
    expect(window.localStorage.getItem(DASHBOARD_FILTER_STORAGE_KEY)).toBe('booked');
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    expect(within(bodyRows()[0]).getByText('Booked')).toBeInTheDocument();
    expect(within(bodyRows()[0]).getByRole('button', { name: 'View Details of slot #21' })).toBeInTheDocument();
    expect(within(table()).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    unmount();

    renderAdminApp('/secured/dashboard');
    expect(await screen.findByText('Showing: Booked Slots')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Booked' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows 5 skeleton rows while the lists load', async () => {
    server.use(
      http.get(`${API}/slot/list`, async () => {
        await delay('infinite');
        return undefined;
      }),
    );
    login();
    const { container } = renderAdminApp('/secured/dashboard');
    await screen.findByRole('heading', { name: 'Assessment Dashboard' });
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    // The page's landmarks come from the shell, so the scan covers the remote's own markup.
    expect(await axe(container)).toHaveNoViolations();
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
  });

  it("shows 'Failed to load slots' and 'Failed to load data' with Retry, and Retry loads the list", async () => {
    seed();
    let failing = true;
    server.use(
      http.get(`${API}/slot/list`, () => (failing ? fail(500, ErrorCode.INTERNAL, 'Database unavailable') : undefined)),
    );
    const user = userEvent.setup();
    const { container } = await openDashboard();
    const alert = await screen.findByRole('alert');
    expect(await axe(container)).toHaveNoViolations();
    expect(alert).toHaveTextContent('Failed to load slots');
    expect(alert).toHaveTextContent('Failed to load data');
    expect(alert).toHaveTextContent('Server error. Please try again later.');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
  });

  it("says 'Access denied' words when the server forbids the list", async () => {
    server.use(http.get(`${API}/slot/list`, () => fail(403, ErrorCode.FORBIDDEN, 'Forbidden')));
    await openDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent("Access denied. You don't have permission to view slots.");
  });

  it("shows 'No Available Slots' with 'Create New Slots', which opens the create dialog", async () => {
    const user = userEvent.setup();
    const { container } = await openDashboard();
    expect(await screen.findByText('No Available Slots')).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
    await user.click(screen.getByRole('button', { name: 'Create New Slots' }));
    expect(await screen.findByRole('dialog', { name: 'Create New Slots' })).toBeInTheDocument();
  });

  it("shows 'No Booked Appointments' with a way back to Available", async () => {
    addSlot({ id: 1, date: '2026-11-23', startTime: '08:30' });
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const user = userEvent.setup();
    await openDashboard();
    expect(await screen.findByText('No Booked Appointments')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show Available Slots' }));
    expect(screen.getByText('Showing: Available Slots')).toBeInTheDocument();
    expect(window.localStorage.getItem(DASHBOARD_FILTER_STORAGE_KEY)).toBe('available');
  });

  it("offers an Actions menu by keyboard: 'Create New Slot' enabled, 'Bulk Actions' and 'More Options' disabled", async () => {
    seed();
    const user = userEvent.setup();
    await openDashboard();
    screen.getByRole('button', { name: 'Actions' }).focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Create New Slot' })).not.toHaveAttribute('aria-disabled');
    expect(within(menu).getByRole('menuitem', { name: 'Bulk Actions' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(menu).getByRole('menuitem', { name: 'More Options' })).toHaveAttribute('aria-disabled', 'true');
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Create New Slot' })).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Create New Slots' })).toBeInTheDocument();
  });

  it('sorts by date and time, earliest first, and reverses on request', async () => {
    seed();
    const user = userEvent.setup();
    await openDashboard();
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    const ids = () => bodyRows().map((r) => within(r).getAllByRole('cell')[0].textContent);
    expect(ids()).toEqual(['#13', '#11', '#12']);
    const header = screen.getByRole('columnheader', { name: /Date & Time/ });
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    within(header).getByRole('button').focus();
    await user.keyboard('{Enter}');
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(ids()).toEqual(['#12', '#11', '#13']);
  });

  it('filters booked slots by visitor name or email, asking the server once typing pauses', async () => {
    seed();
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const user = userEvent.setup();
    await openDashboard();
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    const searched: string[] = [];
    server.events.on('request:start', ({ request }) => {
      const q = new URL(request.url).searchParams.get('q');
      if (q !== null) searched.push(q);
    });
    const search = screen.getByLabelText('Search bookings');
    const shownIds = () => bodyRows().map((r) => within(r).getAllByRole('cell')[0].textContent);
    await user.type(search, 'mei');
    await waitFor(() => expect(shownIds()).toEqual(['#22']));
    // Three keys, one question.
    expect(searched).toEqual(['mei']);
    server.events.removeAllListeners();
    // The other searches pasted whole (one question each; typing is shown above).
    const searchFor = async (text: string) => {
      await user.clear(search);
      await user.paste(text);
    };
    await searchFor('AISYAH@EXAMPLE');
    await waitFor(() => expect(shownIds()).toEqual(['#21']));
    await searchFor('nobody');
    expect(await screen.findByText('No bookings match your search.')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(0);
    // The phone number typed either way, and the school (each search changes what is shown, so each is waited for).
    await searchFor('345 6789');
    await waitFor(() => expect(shownIds()).toEqual(['#21']));
    await searchFor('primary');
    await waitFor(() => expect(shownIds()).toEqual(['#22']));
    await searchFor('0123456789');
    await waitFor(() => expect(shownIds()).toEqual(['#21']));
  });

  it('says who booked in the Booked view: visitor (with email), child (with year), school and phone after the spec columns, each sortable', async () => {
    seed();
    addSlot({
      id: 23,
      date: '2026-11-26',
      startTime: '08:30',
      endTime: '09:00',
      visitorName: 'Ben Lee',
      visitorEmail: 'ben@example.my',
      visitorContactNo: '0312345678',
      selectedSchool: 'Seri Ilmu Private Secondary',
      childName: 'Aina Lee',
      childYear: 'Form 2',
    });
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const user = userEvent.setup();
    const { container } = await openDashboard();
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    const headers = within(table()).getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼↕]|, sorted.*$/g, '').trim());
    expect(headers).toEqual(['ID', 'Date & Time', 'Status', 'Action', 'Visitor', 'Child', 'School', 'Phone', 'Attendance']);
    const cells = (i: number) => within(bodyRows()[i]).getAllByRole('cell').map((c) => c.textContent);
    // Attendance is empty until the visit is marked on its day (issue 40).
    expect(cells(0).slice(4)).toEqual(['Aisyah Rahmanaisyah@example.my', 'Nur ImanYear 7', 'Seri Ilmu International', '012-345 6789', '']);
    expect(cells(1).slice(4)).toEqual(['Tan Mei Lingmeiling@example.my', 'Tan Jia HuiYear 2', 'Seri Ilmu Private Primary', '', '']);
    expect(cells(2).slice(5)).toEqual(['Aina LeeForm 2', 'Seri Ilmu Private Secondary', '03-1234 5678', '']);

    const ids = () => bodyRows().map((r) => within(r).getAllByRole('cell')[0].textContent);
    const visitor = screen.getByRole('columnheader', { name: /Visitor/ });
    expect(visitor).not.toHaveAttribute('aria-sort');
    await user.click(within(visitor).getByRole('button', { name: 'Visitor' }));
    expect(visitor).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: /Date & Time/ })).not.toHaveAttribute('aria-sort');
    expect(ids()).toEqual(['#21', '#23', '#22']);
    await user.click(within(visitor).getByRole('button', { name: 'Visitor' }));
    expect(visitor).toHaveAttribute('aria-sort', 'descending');
    expect(ids()).toEqual(['#22', '#23', '#21']);
    const school = screen.getByRole('columnheader', { name: /School/ });
    within(school).getByRole('button').focus();
    await user.keyboard('{Enter}');
    expect(school).toHaveAttribute('aria-sort', 'ascending');
    expect(ids()).toEqual(['#21', '#22', '#23']);
    expect(await axe(container)).toHaveNoViolations();

    // Available has no visitor columns and goes back to date order.
    await user.click(screen.getByRole('button', { name: 'Available' }));
    await waitFor(() => expect(within(table()).getAllByRole('columnheader')).toHaveLength(4));
    expect(screen.getByRole('columnheader', { name: /Date & Time/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('below the desk (a tablet), lists each booking as a card: who booked beside their column names, View Details on the card, the sort as buttons', async () => {
    seed();
    onPhone();
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const user = userEvent.setup();
    const { container } = await openDashboard();
    const cards = await screen.findByRole('list', { name: '2 booked slots found' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [first, second] = within(cards).getAllByRole('listitem');
    const fields = (card: HTMLElement) =>
      within(card)
        .getAllByRole('term')
        .map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);
    expect(fields(first)).toEqual([
      'ID: #21',
      'Date & Time: Tue 24 Nov 20269:00 AM – 9:30 AM',
      'Status: Booked',
      'Visitor: Aisyah Rahmanaisyah@example.my',
      'Child: Nur ImanYear 7',
      'School: Seri Ilmu International',
      'Phone: 012-345 6789',
    ]);
    // No phone number given: no Phone line rather than an empty one.
    expect(fields(second).map((line) => line.split(':')[0])).not.toContain('Phone');
    expect(within(first).getByRole('button', { name: 'View Details of slot #21' })).toBeInTheDocument();

    const sortBy = screen.getByRole('group', { name: 'Sort by' });
    await user.click(within(sortBy).getByRole('button', { name: /^Date & Time\s*, sorted earliest first$/ }));
    expect(within(cards).getAllByRole('listitem').map((card) => within(card).getAllByRole('definition')[0].textContent)).toEqual(['#22', '#21']);
    expect(await axe(container)).toHaveNoViolations();
  });

  it('on a phone (below 640 px, set by CSS) shows each booking as a card: child and visitor first, then school, date and time (GMT+8), status, phone and View Details', async () => {
    seed();
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const user = userEvent.setup();
    await openDashboard();
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    // jsdom applies no media query: the desk's table shows, and its phone counterpart is in the page, hidden.
    expect(table()).toBeVisible();
    const cards = screen.getByRole('list', { name: '2 booked slots found', hidden: true });
    expect(cards).not.toBeVisible();
    const cardsNow = () => within(cards).getAllByRole('listitem', { hidden: true });
    const fields = (card: HTMLElement) =>
      within(card)
        .getAllByRole('term', { hidden: true })
        .map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);
    const [first, second] = cardsNow();
    expect(fields(first)).toEqual([
      'Child: Nur ImanYear 7',
      'Visitor: Aisyah Rahmanaisyah@example.my',
      'School: Seri Ilmu International',
      'Date & Time (GMT+8): Tue 24 Nov 20269:00 AM – 9:30 AM',
      'Status: Booked',
      'Phone: 012-345 6789',
    ]);
    // The email on its own line, breaking only after its @ or before a dot.
    expect(within(first).getByText('aisyah@example.my', { selector: 'span > span' }).querySelectorAll('wbr').length).toBeGreaterThan(0);
    expect(within(first).getByRole('button', { name: 'View Details of slot #21', hidden: true })).toBeInTheDocument();
    // No phone number given: no Phone line rather than an empty one.
    expect(fields(second).map((line) => line.split(':')[0])).not.toContain('Phone');

    // The cards follow the table's order.
    const children = () => cardsNow().map((card) => fields(card)[0]);
    expect(children()).toEqual(['Child: Nur ImanYear 7', 'Child: Tan Jia HuiYear 2']);
    await user.click(within(screen.getByRole('columnheader', { name: /Date & Time/ })).getByRole('button'));
    expect(children()).toEqual(['Child: Tan Jia HuiYear 2', 'Child: Nur ImanYear 7']);
  });

  it('deletes an available slot after confirmation, with the progress and success toasts', async () => {
    seed();
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.put(`${API}/slot/delete/:slotId`, async () => {
        await answered;
        return undefined;
      }),
    );
    const user = userEvent.setup();
    await openDashboard();
    await user.click(await screen.findByRole('button', { name: 'Delete slot #11' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete slot' });
    expect(dialog).toHaveTextContent('Delete slot #11 on Mon 23 Nov 2026, 8:30 AM – 9:00 AM?');
    expect(await axe(dialog)).toHaveNoViolations();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleting slot...')).toBeInTheDocument();
    expect(within(screen.getByRole('dialog', { name: 'Delete slot' })).getByRole('button', { name: 'Delete' })).toBeDisabled();
    answer();
    expect(await screen.findByText('Slot deleted successfully!')).toBeInTheDocument();
    expect(db.slots.some((s) => s.id === 11)).toBe(false);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete slot #11' })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog', { name: 'Delete slot' })).not.toBeInTheDocument();
  });

  it('keeps the slot and says so when the delete fails', async () => {
    seed();
    server.use(http.put(`${API}/slot/delete/:slotId`, () => fail(500, ErrorCode.INTERNAL, 'Internal error')));
    const user = userEvent.setup();
    await openDashboard();
    await user.click(await screen.findByRole('button', { name: 'Delete slot #12' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete slot' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete slot. Please try again.')).toBeInTheDocument();
    expect(db.slots.some((s) => s.id === 12)).toBe(true);
    expect(screen.getByRole('button', { name: 'Delete slot #12' })).toBeInTheDocument();
  });

  it('marks a slot held by a paying visitor and offers no Delete the server would refuse, saying when it can be deleted', async () => {
    addSlot({ id: 60, date: '2026-11-27', startTime: '09:00', status: 'reserved' });
    addSlot({ id: 61, date: '2026-11-27', startTime: '10:00' });
    await openDashboard();
    await screen.findByRole('button', { name: 'Delete slot #61' });
    const row = within(table()).getByText('#60').closest('tr')!;
    expect(within(row).getByText('Held for payment')).toBeInTheDocument();
    expect(within(row).getByText('Can be deleted if the payment does not go through')).toBeInTheDocument();
    // No Delete the server would refuse (its seats may still change: issue 37).
    expect(within(row).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(within(row).getAllByRole('button').map((b) => b.textContent)).toEqual(['Seats']);
  });

  it("shows the server's reason when a slot was taken for payment after the list loaded", async () => {
    addSlot({ id: 60, date: '2026-11-27', startTime: '09:00' });
    const user = userEvent.setup();
    await openDashboard();
    db.slots.find((s) => s.id === 60)!.status = 'reserved';
    await user.click(await screen.findByRole('button', { name: 'Delete slot #60' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete slot' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(DELETE_HELD_MESSAGE)).toBeInTheDocument();
    expect(db.slots.some((s) => s.id === 60)).toBe(true);
  });

  it('cancelling the confirm dialog deletes nothing', async () => {
    seed();
    const user = userEvent.setup();
    await openDashboard();
    await user.click(await screen.findByRole('button', { name: 'Delete slot #12' }));
    await screen.findByRole('dialog', { name: 'Delete slot' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(db.slots).toHaveLength(5);
  });

  it('shows Appointment Details of a booked slot, formatted, with no accessibility violations', async () => {
    seed();
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const user = userEvent.setup();
    await openDashboard();
    await user.click(await screen.findByRole('button', { name: 'View Details of slot #21' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appointment Details' });
    expect(dialog).toHaveTextContent('Aisyah Rahman');
    expect(dialog).toHaveTextContent('aisyah@example.my');
    expect(dialog).toHaveTextContent('012-345 6789');
    expect(dialog).toHaveTextContent('Seri Ilmu International');
    // The child and the year applied for (issue 24), so staff can prepare.
    expect(within(dialog).getByText('Child', { selector: 'dt' }).nextElementSibling).toHaveTextContent('Nur Iman');
    expect(within(dialog).getByText('Year or grade applied for').nextElementSibling).toHaveTextContent('Year 7');
    expect(dialog).toHaveTextContent('BK-2026-0021');
    expect(dialog).toHaveTextContent('RM 100');
    expect(dialog).toHaveTextContent('#21 · Tue 24 Nov 2026 · 9:00 AM – 9:30 AM');
    expect(await axe(dialog)).toHaveNoViolations();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'View Details of slot #22' }));
    const second = await screen.findByRole('dialog', { name: 'Appointment Details' });
    expect(within(second).getByText('Not provided')).toBeInTheDocument();
    expect(second).toHaveTextContent('RM 50.50');
    expect(within(second).queryByRole('button', { name: 'Copy Contact number' })).not.toBeInTheDocument();
  });

  it('copies a value and shows the confirmation for 2 seconds', async () => {
    seed();
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    jest.useFakeTimers();
    try {
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      await openDashboard();
      await user.click(await screen.findByRole('button', { name: 'View Details of slot #21' }));
      const dialog = await screen.findByRole('dialog', { name: 'Appointment Details' });
      const copyPhone = within(dialog).getByRole('button', { name: 'Copy Contact number' });
      const writeText = jest.spyOn(navigator.clipboard, 'writeText');
      await user.click(copyPhone);
      await waitFor(() => expect(copyPhone).toHaveTextContent('Copied!'));
      expect(writeText).toHaveBeenCalledWith('0123456789');
      expect(copyPhone).toHaveAccessibleName('Copied! Contact number');
      expect(within(dialog).getByText('Contact number copied')).toBeInTheDocument();
      // Waiting for 'Copied!' may itself move the fake clock a little, hence the margin either side of 2 s.
      act(() => jest.advanceTimersByTime(COPY_CONFIRM_MS - 500));
      expect(copyPhone).toHaveTextContent('Copied!');
      act(() => jest.advanceTimersByTime(500));
      expect(copyPhone).toHaveTextContent('Copy');
      expect(copyPhone).not.toHaveTextContent('Copied!');
    } finally {
      jest.useRealTimers();
    }
  });

  it('renders visitor text as text, never as markup', async () => {
    addSlot({
      id: 40,
      date: '2026-11-26',
      startTime: '09:00',
      visitorName: XSS_NAME,
      visitorEmail: '"><script>alert(1)</script>@x.my',
      visitorContactNo: '<b>12345678</b>',
      selectedSchool: '<iframe src=javascript:alert(1)>',
      bookingReference: 'BK-1',
      amountSen: 5000,
    });
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const user = userEvent.setup();
    await openDashboard();
    await user.type(screen.getByLabelText('Search bookings'), '<img');
    await user.click(await screen.findByRole('button', { name: 'View Details of slot #40' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appointment Details' });
    expect(within(dialog).getByText(XSS_NAME)).toBeInTheDocument();
    expect(within(dialog).getByText('<b>12345678</b>')).toBeInTheDocument();
    expect(document.querySelector('img, script, iframe, b')).toBeNull();
  });

  it('exports the paid bookings of a date range as CSV, cancelled ones too, with their status and refund', async () => {
    seed();
    addSlot({ id: 50, date: inDays(3), startTime: '09:00', visitorName: '=HYPERLINK("x")', visitorEmail: 'f@x.my', amountSen: 7500 });
    // Cancelled: its slot was freed, so only GET /staff/bookings still knows it.
    addBooking({
      reference: 'BK-2026-0030',
      visitorName: 'Lee Wei',
      visitorEmail: 'lee@example.my',
      visitorContactNo: '0198765432',
      school: 'Seri Ilmu Private Primary',
      start: '2026-11-24T03:00:00.000Z',
      end: '2026-11-24T03:30:00.000Z',
      amountPaidSen: 5050,
      state: 'cancelled',
      refund: { amountSen: 5050, state: 'refunded' },
    });
    window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
    const blobs: Blob[] = [];
    const created = jest.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:export';
    });
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: jest.fn() });
    const clicked = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    await openDashboard();
    await waitFor(() => expect(bodyRows()).toHaveLength(3));

    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    await user.clear(from);
    await user.type(from, '2026-11-24');
    await user.clear(to);
    await user.type(to, '2026-11-24');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Exported 2 booking(s).')).toBeInTheDocument();
    expect(clicked).toHaveBeenCalledTimes(1);
    const text = await blobs[0].text();
    expect(text.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'Name,Email,Phone,School,Child,Year or grade,Date,Time,Amount (RM),Reference,Status,Refund,Attendance',
      'Aisyah Rahman,aisyah@example.my,012-345 6789,Seri Ilmu International,Nur Iman,Year 7,24 Nov 2026,9:00 AM – 9:30 AM,100,BK-2026-0021,Booked,,',
      // Booked before the child was asked for: empty cells.
      'Lee Wei,lee@example.my,019-876 5432,Seri Ilmu Private Primary,,,24 Nov 2026,11:00 AM – 11:30 AM,50.50,BK-2026-0030,Cancelled,RM 50.50 refunded,',
      '',
    ]);

    await user.clear(to);
    await user.type(to, '2026-11-20');
    expect(screen.getByText('End date must be after start date')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();

    await user.clear(from);
    await user.type(from, '2030-01-01');
    await user.clear(to);
    await user.type(to, '2030-01-31');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('No booked slots in this date range.')).toBeInTheDocument();
    expect(clicked).toHaveBeenCalledTimes(1);
    clicked.mockRestore();
  });

  describe('upcoming, past and per-school views', () => {
    // Monday 23 November 2026, 11:00 GMT+8: slot 11 (08:30 today) and slot 13 (last Friday) have started, slot 12 (13:00
    // today) and the two bookings have not.
    beforeEach(() => {
      jest.useFakeTimers({ now: new Date('2026-11-23T03:00:00Z'), ...FAKE_CLOCK, doNotFake: [...FAKE_CLOCK.doNotFake] });
    });

    it("lists and counts upcoming slots only in Available, Total, Available and Today's Slots (what is left of today, GMT+8)", async () => {
      seed();
      await openDashboard();
      await waitFor(() => expect(bodyRows()).toHaveLength(1));
      expect(within(bodyRows()[0]).getByText('#12')).toBeInTheDocument();
      expect(within(table()).getByText('1 available slot found')).toBeInTheDocument();
      expect(screen.getByTestId('stat-total')).toHaveTextContent('3');
      expect(screen.getByTestId('stat-available')).toHaveTextContent('1');
      expect(screen.getByTestId('stat-booked')).toHaveTextContent('2');
      // Slot 12 only: slot 11 started at 08:30 today.
      expect(screen.getByTestId('stat-today')).toHaveTextContent('1');
      expect(screen.queryByRole('list', { name: 'Bookings by school' })).not.toBeInTheDocument();
    });

    it('shows started slots in a read-only Past view, latest first, kept in local storage like the other choices', async () => {
      seed();
      addSlot({ id: 23, date: '2026-11-19', startTime: '09:00', endTime: '09:30', visitorName: 'Past Parent', visitorEmail: 'p@example.my' });
      const user = userEvent.setup();
      const { unmount } = await openDashboard();
      expect(screen.getByRole('button', { name: 'Available' })).toHaveAttribute('aria-pressed', 'true');
      await user.click(screen.getByRole('button', { name: 'Past' }));
      expect(screen.getByText('Showing: Past Slots')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Past' })).toHaveAttribute('aria-pressed', 'true');
      expect(window.localStorage.getItem(DASHBOARD_FILTER_STORAGE_KEY)).toBe('past');
      await waitFor(() => expect(bodyRows()).toHaveLength(3));
      expect(bodyRows().map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['#11', '#13', '#23']);
      expect(within(table()).getByText('3 past slots found')).toBeInTheDocument();
      expect(within(table()).queryByRole('columnheader', { name: 'Action' })).not.toBeInTheDocument();
      expect(within(table()).queryByRole('button', { name: /Delete|View Details/ })).not.toBeInTheDocument();
      expect(screen.getByText('Past slots are read-only.')).toBeInTheDocument();
      // The Booked view still lists every booking.
      await user.click(screen.getByRole('button', { name: 'Booked' }));
      await waitFor(() => expect(bodyRows()).toHaveLength(3));
      await user.click(screen.getByRole('button', { name: 'Past' }));
      unmount();

      renderAdminApp('/secured/dashboard');
      expect(await screen.findByText('Showing: Past Slots')).toBeInTheDocument();
    });

    it("says 'No Past Slots' when nothing has started yet", async () => {
      addSlot({ id: 70, date: '2026-11-30', startTime: '09:00', endTime: '09:30' });
      window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'past');
      await openDashboard();
      expect(await screen.findByRole('heading', { name: 'No Past Slots' })).toBeInTheDocument();
    });

    it('filters booked slots by school and counts the shown bookings per school', async () => {
      seed();
      addSlot({ id: 24, date: '2026-11-26', startTime: '11:00', endTime: '11:30', visitorName: 'Lim Wei', visitorEmail: 'lim@example.my', selectedSchool: 'Seri Ilmu International' });
      const user = userEvent.setup();
      await openDashboard();
      await user.click(screen.getByRole('button', { name: 'Booked' }));
      await waitFor(() => expect(bodyRows()).toHaveLength(3));
      const cards = screen.getByRole('list', { name: 'Bookings by school' });
      const countOf = (name: string) => within(cards).getByText(name).nextElementSibling?.textContent;
      expect(countOf('Seri Ilmu Private Primary')).toBe('1');
      expect(countOf('Seri Ilmu Private Secondary')).toBe('0');
      expect(countOf('Seri Ilmu International')).toBe('2');

      const school = screen.getByRole('combobox', { name: 'School' });
      expect(within(school).getAllByRole('option').map((o) => o.textContent)).toEqual([
        'All schools',
        'Seri Ilmu Private Primary',
        'Seri Ilmu Private Secondary',
        'Seri Ilmu International',
      ]);
      await user.selectOptions(school, 'Seri Ilmu International');
      await waitFor(() => expect(bodyRows()).toHaveLength(2));
      expect(bodyRows().map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['#21', '#24']);
      expect(within(table()).getByText('2 booked slots found')).toBeInTheDocument();

      // The search narrows what the cards count.
      await user.selectOptions(school, '');
      await user.type(screen.getByLabelText('Search bookings'), 'lim@');
      await waitFor(() => expect(bodyRows()).toHaveLength(1));
      expect(countOf('Seri Ilmu International')).toBe('1');
      expect(countOf('Seri Ilmu Private Primary')).toBe('0');
    });
  });

  it('shows a page of 50 at a time, with the count of all, Previous and Next', async () => {
    for (let i = 0; i < 60; i += 1) addSlot({ id: 100 + i, date: inDays(1 + Math.floor(i / 10)), startTime: `${String(8 + (i % 10)).padStart(2, '0')}:00`, endTime: '09:00' });
    const user = userEvent.setup();
    await openDashboard();
    await waitFor(() => expect(bodyRows()).toHaveLength(50));
    expect(within(table()).getByText('60 available slots found')).toBeInTheDocument();
    const pages = screen.getByRole('navigation', { name: 'Pages of the slots' });
    expect(within(pages).getByText('Page 1 of 2')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    expect(within(bodyRows()[0]).getByText('#150')).toBeInTheDocument();
    expect(within(pages).getByText('Page 2 of 2')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
    // Another view starts at its first page.
    await user.click(screen.getByRole('button', { name: 'Booked' }));
    await user.click(screen.getByRole('button', { name: 'Available' }));
    await waitFor(() => expect(within(bodyRows()[0]).getByText('#100')).toBeInTheDocument());
  });

  it('has no accessibility violations on either filter', async () => {
    seed();
    const user = userEvent.setup();
    const { container } = await openDashboard();
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(await axe(container)).toHaveNoViolations();
    await user.click(screen.getByRole('button', { name: 'Booked' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    expect(await axe(container)).toHaveNoViolations();
    await user.click(screen.getByRole('button', { name: 'Past' }));
    expect(await screen.findByRole('heading', { name: 'No Past Slots' })).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });
});
