import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { addManyRequests, testHolidays } from '../../../test/slot-planning-handlers';
import Cookies from 'js-cookie';
import { CREATE_SUCCESS_PANEL_MS, ErrorCode, TIMEZONE } from 'shared-api';
import { SlotAddMessage } from 'shared-api/schemas';
import { dayjs } from 'shared-api/zoned-dayjs';
import { API, fail } from '../../../test/handlers';
import { addSlot, db, issueToken } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';
import { firstWeekdayFromTomorrow, tomorrowInMY } from '../utils/weekdays';

setupMswServer();

const day = (d: string) => dayjs.tz(d, 'YYYY-MM-DD', TIMEZONE);
/** The first Monday on or after tomorrow (GMT+8), so a Monday-to-Sunday week is always creatable. */
function nextMonday(): string {
  let d = day(tomorrowInMY()).hour(12);
  while (d.day() !== 1) d = d.add(1, 'day');
  return d.format('YYYY-MM-DD');
}
const plus = (d: string, n: number) => day(d).hour(12).add(n, 'day').format('YYYY-MM-DD');

async function openCreateDialog(user: ReturnType<typeof userEvent.setup>) {
  Cookies.set('token', issueToken(), { path: '/' });
  renderAdminApp('/secured/dashboard');
  // Wait until the lists have loaded, then open the Actions menu from the keyboard.
  await screen.findByText(/slots? found|No Available Slots/);
  screen.getByRole('button', { name: 'Actions' }).focus();
  await user.keyboard('{Enter}');
  await user.click(await screen.findByRole('menuitem', { name: 'Create New Slot' }));
  return screen.findByRole('dialog', { name: 'Create New Slots' });
}

const setDate = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Create slots dialog', () => {
  it('starts on the first weekday from tomorrow (never a Saturday or Sunday) and 08:30, disables days before tomorrow, and passes axe', async () => {
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    const tomorrow = tomorrowInMY();
    expect(screen.getByLabelText('Start date')).toHaveValue(firstWeekdayFromTomorrow());
    expect(screen.getByLabelText('End date')).toHaveValue(firstWeekdayFromTomorrow());
    expect([0, 6]).not.toContain(day(firstWeekdayFromTomorrow()).hour(12).day());
    expect(screen.getByLabelText('Start time')).toHaveValue('08:30');
    expect(screen.getByLabelText('Start date')).toHaveAttribute('min', tomorrow);
    // The end date cannot come before the start date.
    expect(screen.getByLabelText('End date')).toHaveAttribute('min', firstWeekdayFromTomorrow());
    // Monday to Friday chosen (weekend slots are refused, so not offered); public holidays skipped.
    const days = within(screen.getByRole('group', { name: 'Days of the week' })).getAllByRole('checkbox');
    expect(days.map((c) => [c.closest('label')?.textContent, (c as HTMLInputElement).checked])).toEqual([
      ['Monday', true],
      ['Tuesday', true],
      ['Wednesday', true],
      ['Thursday', true],
      ['Friday', true],
    ]);
    expect(screen.getByRole('checkbox', { name: 'Skip public holidays' })).toBeChecked();
    // The buttons live in the dialog's footer, outside the scrolling body, and still submit the form.
    const create = within(dialog).getByRole('button', { name: 'Create Slots' });
    expect(screen.getByRole('form', { name: 'Create New Slots' })).not.toContainElement(create);
    expect(create).toHaveAttribute('form', screen.getByRole('form', { name: 'Create New Slots' }).id);
    expect(await axe(dialog)).toHaveNoViolations();
  });

  it('shows the servers\' limits: dates up to two years ahead, a start time by 11:29 PM; refuses beyond them and sends nothing', async () => {
    const user = userEvent.setup();
    await openCreateDialog(user);
    // Two years from today (GMT+8): the same day of the year, 29 February giving the 28th.
    const today = dayjs().tz(TIMEZONE);
    const inTwoYears = today.format('MM-DD') === '02-29' ? `${today.year() + 2}-02-28` : `${today.year() + 2}-${today.format('MM-DD')}`;
    expect(screen.getByLabelText('Start date')).toHaveAttribute('max', inTwoYears);
    expect(screen.getByLabelText('End date')).toHaveAttribute('max', inTwoYears);
    expect(screen.getByText('Each slot lasts 30 minutes and ends before midnight: the latest start is 11:29 PM.')).toBeInTheDocument();

    setDate('Start date', '9999-12-27');
    setDate('End date', '9999-12-31');
    fireEvent.change(screen.getByLabelText('Start time'), { target: { value: '23:30' } });
    await user.click(screen.getByRole('button', { name: 'Create Slots' }));
    expect(await screen.findAllByText(SlotAddMessage.tooFar)).toHaveLength(2);
    expect(screen.getByText('The latest start time is 11:29 PM: a slot must end before midnight.')).toBeInTheDocument();
    expect(db.slots).toHaveLength(0);
  });

  it('gives the four validation messages and sends nothing', async () => {
    const user = userEvent.setup();
    await openCreateDialog(user);
    setDate('Start date', '');
    setDate('End date', '');
    fireEvent.change(screen.getByLabelText('Start time'), { target: { value: '' } });
    await user.click(screen.getByRole('button', { name: 'Create Slots' }));
    expect(await screen.findByText('Start date is required')).toBeInTheDocument();
    expect(screen.getByText('End date is required')).toBeInTheDocument();
    expect(screen.getByText('Start time is required')).toBeInTheDocument();

    const monday = nextMonday();
    setDate('Start date', plus(monday, 2));
    setDate('End date', monday);
    fireEvent.change(screen.getByLabelText('Start time'), { target: { value: '08:30' } });
    await user.click(screen.getByRole('button', { name: 'Create Slots' }));
    expect(await screen.findByText('End date must be after start date')).toBeInTheDocument();
    expect(db.slots).toHaveLength(0);
  });

  it('allows the same day, refuses a start before tomorrow and a weekend-only range', async () => {
    const user = userEvent.setup();
    await openCreateDialog(user);
    setDate('Start date', dayjs().tz(TIMEZONE).format('YYYY-MM-DD'));
    await user.click(screen.getByRole('button', { name: 'Create Slots' }));
    expect(await screen.findByText(SlotAddMessage.tooEarly)).toBeInTheDocument();

    const saturday = plus(nextMonday(), 5);
    setDate('Start date', saturday);
    setDate('End date', plus(saturday, 1));
    // Said with its reason (issue 36: "No slots will be created" alone left the secretary guessing).
    expect(await screen.findByText('No slots will be created with these choices. None of the chosen days of the week falls between these dates.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Slots' }));
    expect(await screen.findByText(SlotAddMessage.weekend)).toBeInTheDocument();
    // No day of the week chosen: said so.
    setDate('Start date', nextMonday());
    setDate('End date', nextMonday());
    for (const name of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) await user.click(screen.getByRole('checkbox', { name }));
    expect(await screen.findByText('No slots will be created with these choices. Choose at least one day of the week.')).toBeInTheDocument();
    expect(db.slots).toHaveLength(0);
  });

  it('previews with the server how many slots will be created, never counting the refused ones, on the chosen weekdays', async () => {
    const monday = nextMonday();
    addSlot({ id: 90, date: plus(monday, 2), startTime: '08:30' });
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    setDate('Start date', monday);
    setDate('End date', plus(monday, 6));
    // Wednesday's 8:30 exists already: 4 will be created, and the fifth is listed as refused.
    expect(await within(dialog).findByText('4 slots will be created, at 8:30 AM.')).toBeInTheDocument();
    expect(within(dialog).getByRole('list', { name: 'Refused slots' })).toHaveTextContent(
      `${day(plus(monday, 2)).format('ddd D MMM YYYY')}, 8:30 AM – 9:00 AM: A slot already exists at this date and time.`,
    );
    await user.click(screen.getByRole('checkbox', { name: 'Wednesday' }));
    await user.click(screen.getByRole('checkbox', { name: 'Friday' }));
    expect(await within(dialog).findByText('3 slots will be created, at 8:30 AM.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('list', { name: 'Refused slots' })).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Start time'), { target: { value: '14:15' } });
    expect(await within(dialog).findByText('3 slots will be created, at 2:15 PM.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create Slots' }));
    expect(await screen.findByText('Successfully created 3 slot(s)!')).toBeInTheDocument();
    expect(addManyRequests).toEqual([{ fromDate: monday, toDate: plus(monday, 6), weekdays: [1, 2, 4], startTimes: ['14:15'], skipHolidays: true }]);
  });

  it('warns about public holidays on the planned days and skips them unless told not to', async () => {
    const monday = nextMonday();
    testHolidays.set(plus(monday, 3), 'Deepavali');
    try {
      const user = userEvent.setup();
      const dialog = await openCreateDialog(user);
      setDate('Start date', monday);
      setDate('End date', plus(monday, 4));
      expect(await within(dialog).findByText('4 slots will be created, at 8:30 AM.')).toBeInTheDocument();
      expect(within(dialog).getByText('Skipped: 1 public holiday in this range, with no slots:')).toBeInTheDocument();
      expect(within(dialog).getByRole('list', { name: 'Public holidays' })).toHaveTextContent(`${day(plus(monday, 3)).format('ddd D MMM YYYY')}: Deepavali`);
      expect(await axe(dialog)).toHaveNoViolations();

      await user.click(screen.getByRole('checkbox', { name: 'Skip public holidays' }));
      expect(await within(dialog).findByText('5 slots will be created, at 8:30 AM.')).toBeInTheDocument();
      expect(within(dialog).getByText('1 planned day is a public holiday; its slots will be created:')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Create Slots' }));
      expect(await screen.findByText('Successfully created 5 slot(s)!')).toBeInTheDocument();
      expect(addManyRequests.at(-1)).toMatchObject({ skipHolidays: false });
    } finally {
      testHolidays.clear();
    }
  });

  it("creates every slot in one request, shows 'Creating...' and 'Creating 5 slot(s)...', then one success message (the panel, no toast) for 1.5 s, then closes and refreshes", async () => {
    jest.useFakeTimers();
    try {
      let answer: () => void = () => {};
      const answered = new Promise<void>((resolve) => (answer = resolve));
      server.use(
        http.post(`${API}/slot/add-many`, async () => {
          await answered;
          return undefined;
        }),
      );
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      await openCreateDialog(user);
      const monday = nextMonday();
      setDate('Start date', monday);
      setDate('End date', plus(monday, 6));
      await user.click(screen.getByRole('button', { name: 'Create Slots' }));
      expect(await screen.findByRole('button', { name: 'Creating...' })).toBeDisabled();
      // The spec's progress words, with the count the server planned.
      expect(await screen.findByText('Creating 5 slot(s)...')).toBeInTheDocument();
      answer();

      const panel = await screen.findByText('Successfully created 5 slot(s)!', { selector: '[role="dialog"] [role="status"]' });
      expect(panel).toBeInTheDocument();
      expect(screen.getAllByText(/Successfully created|Creating \d/)).toEqual([panel]);
      expect(addManyRequests).toEqual([{ fromDate: monday, toDate: plus(monday, 6), weekdays: [1, 2, 3, 4, 5], startTimes: ['08:30'], skipHolidays: true }]);
      expect(db.slots).toHaveLength(5);

      // Waiting for the panel may itself move the fake clock a little, hence the margin either side of 1.5 s.
      act(() => jest.advanceTimersByTime(CREATE_SUCCESS_PANEL_MS - 500));
      expect(screen.getByRole('dialog', { name: 'Create New Slots' })).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(500));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create New Slots' })).not.toBeInTheDocument());
      await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(6));
      expect(screen.getByTestId('stat-available')).toHaveTextContent('5');
    } finally {
      jest.useRealTimers();
    }
  });

  it('closing during the success panel still refreshes the list', async () => {
    jest.useFakeTimers();
    try {
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      await openCreateDialog(user);
      // A weekday: the default (tomorrow) is a Saturday when the test runs on a Friday.
      setDate('Start date', nextMonday());
      setDate('End date', nextMonday());
      await user.click(screen.getByRole('button', { name: 'Create Slots' }));
      const panel = await screen.findByText('Successfully created 1 slot(s)!', { selector: '[role="dialog"] [role="status"]' });
      expect(panel).toHaveFocus();
      const closedAt = Date.now();
      await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      // Closed by the button, well before the panel's own 1.5 s (the fake clock only moves while waiting).
      expect(Date.now() - closedAt).toBeLessThan(CREATE_SUCCESS_PANEL_MS - 500);
      await waitFor(() => expect(screen.getByTestId('stat-available')).toHaveTextContent('1'));
    } finally {
      jest.useRealTimers();
    }
  });

  it("says 'Failed to create slots. Please try again.' once, in the dialog, when nothing was created", async () => {
    server.use(http.post(`${API}/slot/add-many`, () => fail(500, ErrorCode.INTERNAL, 'Internal error')));
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    setDate('Start date', nextMonday());
    setDate('End date', nextMonday());
    await user.click(screen.getByRole('button', { name: 'Create Slots' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to create slots. Please try again.');
    expect(screen.getAllByText('Failed to create slots. Please try again.')).toHaveLength(1);
    expect(screen.queryByText(/Successfully created/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Slots' })).toBeEnabled();
  });

  it('works by keyboard and closes with Escape without creating anything', async () => {
    const user = userEvent.setup();
    await openCreateDialog(user);
    await waitFor(() => expect(screen.getByRole('dialog')).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(db.slots).toHaveLength(0);
  });
});
