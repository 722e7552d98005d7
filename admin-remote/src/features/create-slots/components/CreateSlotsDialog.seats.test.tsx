// Children at a time (issue 37): the dialog asks how many children each time assesses at once and sends it as seats.
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { TIMEZONE } from 'shared-api';
import { dayjs } from 'shared-api/zoned-dayjs';
import { issueToken } from '../../../test/db';
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

describe('Create slots dialog: children at a time', () => {
  it('offers 1 to 6, one by default, with its hint, and passes axe', async () => {
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    const seats = within(dialog).getByRole('combobox', { name: 'Children at a time' });
    expect(seats).toHaveValue('1');
    expect(within(seats).getAllByRole('option').map((o) => o.textContent)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(seats).toHaveAccessibleDescription('One per assessor: how many children can be assessed at the same time.');
    expect(await axe(dialog)).toHaveNoViolations();
  });

  it('previews the seats the times make, sends the choice as seats, and says it when done', async () => {
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    const monday = nextMonday();
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: monday } });
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: plus(monday, 4) } });
    expect(await within(dialog).findByText('5 slots will be created, at 8:30 AM.')).toBeInTheDocument();

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Children at a time' }), '3');
    expect(
      await within(dialog).findByText('5 slots will be created, at 8:30 AM. 3 children at a time: 15 seats in all.'),
    ).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Create Slots' }));
    expect(
      await screen.findByText('Successfully created 5 slot(s), 3 children at a time!', { selector: '[role="dialog"] *' }),
    ).toBeInTheDocument();
    expect(addManyRequests).toEqual([
      { fromDate: monday, toDate: plus(monday, 4), weekdays: [1, 2, 3, 4, 5], startTimes: ['08:30'], skipHolidays: true, seats: 3 },
    ]);
  });

  it('leaves seats out of the request for one child at a time, as before', async () => {
    const user = userEvent.setup();
    const dialog = await openCreateDialog(user);
    const monday = nextMonday();
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: monday } });
    // The end date too: left at its default (tomorrow), it is before the Monday on every day but a Sunday.
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: monday } });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Children at a time' }), '2');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Children at a time' }), '1');
    expect(await within(dialog).findByText('1 slot will be created, at 8:30 AM.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create Slots' }));
    expect(await screen.findByText('Successfully created 1 slot(s)!', { selector: '[role="dialog"] *' })).toBeInTheDocument();
    expect(addManyRequests).toEqual([{ fromDate: monday, toDate: monday, weekdays: [1, 2, 3, 4, 5], startTimes: ['08:30'], skipHolidays: true }]);
  });
});
