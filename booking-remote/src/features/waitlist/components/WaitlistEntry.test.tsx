import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { addDays, brand, todayInMY } from 'shared-api';
import type { WaitlistEntryView } from 'shared-api/waitlist';
import { activateLocale } from 'shared-ui';
import WaitlistEntryPage from '../../../pages/WaitlistEntryPage';
import { ok } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server, startMswServer } from '../../../test/server';
import { firstWeekdayFrom } from '../utils/joinForm';

// Issue 26: the entry link's page shows the parent's place and days, changes the days and leaves the list; an ended
// entry says why and what next.
startMswServer();
afterEach(() => act(() => activateLocale('en')));

const from = firstWeekdayFrom(addDays(todayInMY(), 3));
const view = (state: WaitlistEntryView['entry']['state'], place: number | null = 2): WaitlistEntryView => ({
  entry: {
    school: brand.schools[0].name,
    name: 'Aminah Binti Ali',
    email: 'aminah@example.com',
    phone: '0123456789',
    fromDate: from,
    toDate: addDays(from, 7),
    partOfDay: 'any',
    locale: 'en',
    state,
    place,
  },
  offer: null,
});

const open = (answer: WaitlistEntryView) => {
  server.use(http.get(apiUrl('/api/waitlist/entry/:token'), () => HttpResponse.json(ok(answer))));
  return renderApp(<WaitlistEntryPage />, { route: '/waitlist/entry-token-1' });
};

it('shows the place, changes the days, and leaves after asking', async () => {
  const puts: unknown[] = [];
  server.use(
    http.put(apiUrl('/api/waitlist/entry/:token'), async ({ request }) => {
      const dates = (await request.json()) as { fromDate: string; toDate: string; partOfDay: 'afternoon' };
      puts.push(dates);
      const next = view('waiting');
      return HttpResponse.json(ok({ ...next, entry: { ...next.entry, ...dates } }));
    }),
    http.post(apiUrl('/api/waitlist/entry/:token/leave'), () => HttpResponse.json(ok(view('left', null)))),
  );
  const user = userEvent.setup();
  open(view('waiting'));
  expect(await screen.findByText('Number 2 in line')).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Change dates' }));
  await user.selectOptions(screen.getByLabelText('Time of day'), 'afternoon');
  await user.click(screen.getByRole('button', { name: 'Save dates' }));
  expect(await screen.findByText('Your dates are saved.')).toBeInTheDocument();
  expect(puts).toEqual([{ fromDate: from, toDate: addDays(from, 7), partOfDay: 'afternoon' }]);
  expect(screen.getByText('Afternoons only (from 12:00)')).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Leave the waitlist' }));
  const confirm = await screen.findByRole('dialog', { name: 'Leave the waitlist?' });
  await user.click(within(confirm).getByRole('button', { name: 'Leave' }));
  expect(await screen.findByText('You have left the waitlist. You can join again at any time.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Change dates' })).not.toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'See the timetable' })).toHaveAttribute('href', '/');
});

it('refuses a last day before the first without sending it', async () => {
  let sent = 0;
  server.use(http.put(apiUrl('/api/waitlist/entry/:token'), () => ((sent += 1), HttpResponse.json(ok(view('waiting'))))));
  const user = userEvent.setup();
  open(view('waiting'));
  await user.click(await screen.findByRole('button', { name: 'Change dates' }));
  const to = screen.getByLabelText('Last day you can come');
  await user.clear(to);
  await user.type(to, addDays(from, -1));
  expect(await screen.findByText('The last day must be on or after the first day.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Save dates' })).toBeDisabled();
  expect(sent).toBe(0);
});

it('an entry the school removed says so in Bahasa Melayu, with the way on', async () => {
  await act(() => activateLocale('ms'));
  open(view('removed', null));
  expect(await screen.findByText(/Pihak sekolah telah mengeluarkan anda/)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Lihat jadual' })).toBeInTheDocument();
});
