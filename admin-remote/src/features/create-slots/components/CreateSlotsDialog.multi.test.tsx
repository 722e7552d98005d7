// Several start times a day (issue 15): the dialog previews the plan with the server and creates it in one request.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { TIMEZONE } from 'shared-api';
import { SlotPlanMessage } from 'shared-api/slot-planning';
import { dayjs } from 'shared-api/zoned-dayjs';
import { addSlot, db, issueToken } from '../../../test/db';
import { setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';
import { addManyRequests } from '../../../test/slot-planning-handlers';
import { tomorrowInMY } from '../utils/weekdays';

setupMswServer();

const day = (d: string) => dayjs.tz(d, 'YYYY-MM-DD', TIMEZONE);
/** The first Monday on or after tomorrow (GMT+8), so a Monday-to-Friday week is always creatable. */
function nextMonday(): string {
  let d = day(tomorrowInMY()).hour(12);
  while (d.day() !== 1) d = d.add(1, 'day');
  return d.format('YYYY-MM-DD');
}
const plus = (d: string, n: number) => day(d).hour(12).add(n, 'day').format('YYYY-MM-DD');
const longDay = (d: string) => day(d).format('ddd D MMM YYYY');

beforeEach(() => {
  addManyRequests.length = 0;
});

async function openCreateDialog(user: ReturnType<typeof userEvent.setup>) {
  Cookies.set('token', issueToken(), { path: '/' });
  renderAdminApp('/secured/dashboard');
  await screen.findByText(/slots? found|No Available Slots/);
  screen.getByRole('button', { name: 'Actions' }).focus();
  await user.keyboard('{Enter}');
  await user.click(await screen.findByRole('menuitem', { name: 'Create New Slot' }));
  return screen.findByRole('dialog', { name: 'Create New Slots' });
}

const setValue = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

async function planWeek(user: ReturnType<typeof userEvent.setup>, monday: string, extra: string[]) {
  setValue('Start date', monday);
  setValue('End date', plus(monday, 4));
  for (const [i, time] of extra.entries()) {
    await user.click(screen.getByRole('button', { name: 'Add another time' }));
    setValue(`Start time ${i + 2}`, time);
  }
}

describe('Create slots dialog with several start times', () => {
  it('adds start times on request, previews the plan from the server, and creates it in one request', async () => {
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    expect(screen.queryByLabelText('Start time 2')).not.toBeInTheDocument();
    const monday = nextMonday();
    await planWeek(user, monday, ['14:00', '10:00']);
    expect(
      await within(dialog).findByText('15 slots will be created, at 8:30 AM, 10:00 AM, 2:00 PM.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByText('Show the slots'));
    const list = within(dialog).getByRole('list', { name: 'Slots to create' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(15);
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent(`${longDay(monday)}, 8:30 AM – 9:00 AM`);
    expect(db.slots).toHaveLength(0);
    expect(await axe(dialog)).toHaveNoViolations();

    await user.click(within(dialog).getByRole('button', { name: 'Create Slots' }));
    expect(await screen.findByText('Successfully created 15 slot(s)!', { selector: '[role="dialog"] *' })).toBeInTheDocument();
    expect(addManyRequests).toEqual([
      { fromDate: monday, toDate: plus(monday, 4), weekdays: [1, 2, 3, 4, 5], startTimes: ['08:30', '14:00', '10:00'], skipHolidays: true },
    ]);
    expect(db.slots).toHaveLength(15);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create New Slots' })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByTestId('stat-available')).toHaveTextContent('15'));
  });

  it('lists the refusals in the preview, and when the server refuses at submit creates nothing and says why', async () => {
    const monday = nextMonday();
    addSlot({ id: 80, date: plus(monday, 1), startTime: '08:45', endTime: '09:15' });
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    await planWeek(user, monday, ['10:00']);
    const refused = await within(dialog).findByRole('list', { name: 'Refused slots' });
    expect(within(dialog).getByText('1 slot(s) cannot be created:')).toBeInTheDocument();
    expect(refused).toHaveTextContent(`${longDay(plus(monday, 1))}, 8:30 AM – 9:00 AM: ${SlotPlanMessage.overlapsExisting('8:45 AM', '9:15 AM')}`);
    expect(within(dialog).getByText(/^9 slots will be created/)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Create Slots' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to create slots. Please try again.');
    expect(alert).toHaveTextContent('Nothing was created. These slots are refused:');
    expect(alert).toHaveTextContent(`${longDay(plus(monday, 1))}, 8:30 AM – 9:00 AM: ${SlotPlanMessage.overlapsExisting('8:45 AM', '9:15 AM')}`);
    expect(screen.getAllByText('Failed to create slots. Please try again.')).toHaveLength(1);
    expect(db.slots).toHaveLength(1);
    expect(screen.queryByText(/Successfully created/)).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create Slots' })).toBeEnabled();
  });

  it('a slot created by someone else after the preview is refused at submit, and nothing is created', async () => {
    const monday = nextMonday();
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    await planWeek(user, monday, ['09:00']);
    expect(await within(dialog).findByText(/^10 slots will be created/)).toBeInTheDocument();
    addSlot({ id: 81, date: plus(monday, 3), startTime: '09:00', endTime: '09:30' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Slots' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(`${longDay(plus(monday, 3))}, 9:00 AM – 9:30 AM: A slot already exists at this date and time.`);
    expect(db.slots).toHaveLength(1);
  });

  it('checks the added times: required, not repeated, not after the latest start (the servers\' rule); sends nothing otherwise', async () => {
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    const monday = nextMonday();
    await planWeek(user, monday, ['', '08:30', '23:45']);
    await user.click(within(dialog).getByRole('button', { name: 'Create Slots' }));
    expect(await within(dialog).findByText('Start time is required')).toBeInTheDocument();
    expect(within(dialog).getByText('This start time is already in the list')).toBeInTheDocument();
    expect(within(dialog).getByText('The latest start time is 11:29 PM: a slot must end before midnight.')).toBeInTheDocument();
    expect(within(dialog).getByText('No slots will be created with these choices.')).toBeInTheDocument();
    expect(addManyRequests).toHaveLength(0);
    expect(db.slots).toHaveLength(0);
  });

  it(`offers at most 12 start times`, async () => {
    const user = userEvent.setup();
    await openCreateDialog(user);
    for (let i = 0; i < 11; i++) await user.click(screen.getByRole('button', { name: 'Add another time' }));
    expect(screen.getByLabelText('Start time 12')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add another time' })).not.toBeInTheDocument();
  });
});
