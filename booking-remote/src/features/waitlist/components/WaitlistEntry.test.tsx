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
const view = (state: WaitlistEntryView['entry']['state'], place: number | null = 2, children = 1): WaitlistEntryView => ({
  entry: {
    school: brand.schools[0].name,
    name: 'Aminah Binti Ali',
    email: 'aminah@example.com',
    phone: '0123456789',
    fromDate: from,
    toDate: addDays(from, 7),
    partOfDay: 'any',
    locale: 'en',
    children,
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

// Issue 35: a join is a request until the mail's owner confirms it; "this wasn't me" ends it. Opening the page acts on
// nothing: a press does.
describe('a request waiting for its confirmation', () => {
  const calls: string[] = [];
  beforeEach(() => {
    calls.length = 0;
    server.use(
      http.post(apiUrl('/api/waitlist/entry/:token/confirm'), () => (calls.push('confirm'), HttpResponse.json(ok(view('waiting', 4))))),
      http.post(apiUrl('/api/waitlist/entry/:token/not-me'), () =>
        (calls.push('not-me'), HttpResponse.json(ok({ state: 'disowned', blockedUntil: `${addDays(todayInMY(), 30)}T02:00:00.000Z` }))),
      ),
    );
  });

  it('says who asked, and "Confirm my place" puts the parent on the list with a place', async () => {
    const user = userEvent.setup();
    open(view('pending', null));
    expect(await screen.findByText(/You are not on the list until you confirm/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Confirm your place on the waitlist' })).toBeInTheDocument();
    expect(screen.getByText('Name given')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Confirm my place' }));
    expect(await screen.findByText('Number 4 in line')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your place on the waitlist' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave the waitlist' })).toBeInTheDocument();
    expect(calls).toEqual(['confirm']);
  });

  it('the mail\'s "this wasn\'t me" link asks first, and only the press ends the request', async () => {
    server.use(http.get(apiUrl('/api/waitlist/entry/:token'), () => HttpResponse.json(ok(view('pending', null)))));
    const user = userEvent.setup();
    renderApp(<WaitlistEntryPage />, { route: '/waitlist/entry-token-1?not-me=1' });
    const asking = await screen.findByRole('dialog', { name: "This wasn't you?" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toEqual([]);
    await user.click(within(asking).getByRole('button', { name: "This wasn't me" }));
    expect(await screen.findByText(/This request has ended, and nobody can put this email address on our waitlists until/)).toBeInTheDocument();
    expect(screen.queryByText('Aminah Binti Ali')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirm my place' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the timetable' })).toBeInTheDocument();
    expect(calls).toEqual(['not-me']);
  });

  it('a phone or email already on the list is said in place, beside the button', async () => {
    server.use(
      http.post(apiUrl('/api/waitlist/entry/:token/confirm'), () =>
        HttpResponse.json({ success: false, error: 'WAITLIST_ALREADY_ON', message: "This email address or phone number is already on this school's waitlist." }, { status: 409 }),
      ),
    );
    await act(() => activateLocale('ms'));
    const user = userEvent.setup();
    open(view('pending', null));
    await user.click(await screen.findByRole('button', { name: 'Sahkan tempat saya' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/sudah berada dalam senarai menunggu sekolah ini/);
  });

  it('an unconfirmed request that ended says so, without the details someone typed', async () => {
    open(view('unconfirmed', null));
    expect(await screen.findByText(/was not confirmed within a day/)).toBeInTheDocument();
    expect(screen.queryByText('Aminah Binti Ali')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the timetable' })).toBeInTheDocument();
  });
});

it('says how many children the entry is for when more than one, and nothing when one (issue 37)', async () => {
  open(view('waiting', 2, 3));
  expect(await screen.findByText('3 children, seen together')).toBeInTheDocument();
});

it('says nothing of children for one child', async () => {
  open(view('waiting', 2));
  expect(await screen.findByText('Aminah Binti Ali')).toBeInTheDocument();
  expect(screen.queryByText(/children, seen together/)).not.toBeInTheDocument();
});
