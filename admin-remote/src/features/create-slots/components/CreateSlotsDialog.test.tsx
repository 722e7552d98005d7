import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, delay } from 'msw';
import Cookies from 'js-cookie';
import { CREATE_SUCCESS_PANEL_MS, ErrorCode, TIMEZONE } from 'shared-api';
import { SlotAddMessage } from 'shared-api/schemas';
import { dayjs } from 'shared-api/zoned-dayjs';
import { API, fail } from '../../../test/handlers';
import { addSlot, db, issueToken } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';
import { tomorrowInMY } from '../utils/weekdays';

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
  it('starts with tomorrow, tomorrow and 08:30, disables days before tomorrow, and passes axe', async () => {
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    const tomorrow = tomorrowInMY();
    expect(screen.getByLabelText('Start date')).toHaveValue(tomorrow);
    expect(screen.getByLabelText('End date')).toHaveValue(tomorrow);
    expect(screen.getByLabelText('Start time')).toHaveValue('08:30');
    expect(screen.getByLabelText('Start date')).toHaveAttribute('min', tomorrow);
    expect(screen.getByLabelText('End date')).toHaveAttribute('min', tomorrow);
    expect(await axe(dialog)).toHaveNoViolations();
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
    expect(screen.getByText('No slots will be created with these choices.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Slots' }));
    expect(await screen.findByText(SlotAddMessage.weekend)).toBeInTheDocument();
    expect(db.slots).toHaveLength(0);
  });

  it('previews how many weekday slots a range makes, weekends skipped', async () => {
    const user = userEvent.setup();
    await openCreateDialog(user);
    const monday = nextMonday();
    setDate('Start date', monday);
    setDate('End date', plus(monday, 6));
    expect(screen.getByText('5 weekday slot(s) will be created, each 8:30 AM - 9:00 AM. Weekends are skipped.')).toBeInTheDocument();
    setDate('End date', plus(monday, 13));
    fireEvent.change(screen.getByLabelText('Start time'), { target: { value: '14:15' } });
    expect(screen.getByText('10 weekday slot(s) will be created, each 2:15 PM - 2:45 PM. Weekends are skipped.')).toBeInTheDocument();
  });

  it("creates one 30-minute slot per weekday, shows 'Creating...' and the toasts, the success panel for 1.5 s, then closes and refreshes", async () => {
    jest.useFakeTimers();
    try {
      const bodies: unknown[] = [];
      server.use(
        http.post(`${API}/slot/add`, async ({ request }) => {
          bodies.push(await request.clone().json());
          await delay(20);
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
      expect(await screen.findByText('Creating 5 slot(s)...')).toBeInTheDocument();

      const panel = await screen.findByText('Successfully created 5 slot(s)!', { selector: '[role="dialog"] *' });
      expect(panel).toBeInTheDocument();
      expect(bodies).toEqual([0, 1, 2, 3, 4].map((n) => ({ date: plus(monday, n), startTime: '08:30', endTime: '09:00' })));
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
      const panel = await screen.findByText('Successfully created 1 slot(s)!', { selector: '[role="dialog"] *' });
      expect(panel).toHaveFocus();
      const closedAt = Date.now();
      // Escape would first dismiss the success toast (the topmost Radix layer), so use the dialog's Close button.
      await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      // Closed by the button, well before the panel's own 1.5 s (the fake clock only moves while waiting).
      expect(Date.now() - closedAt).toBeLessThan(CREATE_SUCCESS_PANEL_MS - 500);
      await waitFor(() => expect(screen.getByTestId('stat-available')).toHaveTextContent('1'));
    } finally {
      jest.useRealTimers();
    }
  });

  it('says which days failed when only some did, and still refreshes the ones created', async () => {
    const monday = nextMonday();
    addSlot({ id: 90, date: plus(monday, 2), startTime: '08:30' });
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    setDate('Start date', monday);
    setDate('End date', plus(monday, 4));
    await user.click(screen.getByRole('button', { name: 'Create Slots' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to create slots. Please try again.');
    expect(alert).toHaveTextContent('Created 4 of 5 slot(s). These days failed:');
    expect(alert).toHaveTextContent(`${day(plus(monday, 2)).format('ddd, MMM DD, YYYY')}: A slot already exists at this date and time`);
    expect(await screen.findByText('Successfully created 4 slot(s)!')).toBeInTheDocument();
    expect(screen.getAllByText('Failed to create slots. Please try again.').length).toBeGreaterThanOrEqual(2);
    expect(db.slots).toHaveLength(5);
    expect(screen.getByRole('dialog', { name: 'Create New Slots' })).toBeInTheDocument();
  });

  it("says 'Failed to create slots. Please try again.' inline and as a toast when nothing was created", async () => {
    server.use(http.post(`${API}/slot/add`, () => fail(500, ErrorCode.INTERNAL, 'Internal error')));
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    setDate('Start date', nextMonday());
    setDate('End date', nextMonday());
    await user.click(screen.getByRole('button', { name: 'Create Slots' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to create slots. Please try again.');
    await waitFor(() => expect(screen.getAllByText('Failed to create slots. Please try again.')).toHaveLength(2));
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
