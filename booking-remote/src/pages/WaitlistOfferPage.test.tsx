import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { addDays, brand, todayInMY } from 'shared-api';
import { schoolYears } from 'shared-api/schools';
import type { WaitlistOfferView } from 'shared-api/waitlist';
import { activateLocale } from 'shared-ui';
import { axe } from '../test/axe';
import { ok } from '../test/fixtures';
import { renderApp } from '../test/render';
import { apiUrl, server, startMswServer } from '../test/server';
import WaitlistOfferPage from './WaitlistOfferPage';

// Issue 26: the offer link's page says the offer (school, day and time GMT+8, fee, until when); "Book and pay" accepts
// it and opens the booking dialog at the payment summary with the entry's details; every ended state says what next.
startMswServer();
afterEach(() => act(() => activateLocale('en')));

const school = brand.schools[0];
const offer = (state: WaitlistOfferView['state'], children = 1): WaitlistOfferView => ({
  state,
  school: school.name,
  slot: { id: 41, date: addDays(todayInMY(), 2), startTime: '10:00', endTime: '10:30' },
  feeSen: school.feeSen,
  children,
  startsAt: new Date(Date.now() - 60_000).toISOString(),
  expiresAt: new Date(Date.now() + 29 * 60_000).toISOString(),
  visitor: { name: 'Aminah Binti Ali', email: 'aminah@example.com', phone: '0123456789', school: school.name, childName: 'Siti', childYear: schoolYears(school.name)[0].name },
  locale: 'en',
});

const open = (view: WaitlistOfferView) => {
  server.use(http.get(apiUrl('/api/waitlist/offer/:token'), () => HttpResponse.json(ok(view))));
  return renderApp(<WaitlistOfferPage />, { route: '/waitlist/offer/offer-token-1' });
};

it('accepts a live offer and opens the payment summary with the details filled in', async () => {
  const accepted: string[] = [];
  server.use(
    http.post(apiUrl('/api/waitlist/offer/:token/accept'), ({ params }) => {
      accepted.push(String(params.token));
      return HttpResponse.json(ok({ slotId: 41, token: 'hold-token-w', expiresAt: new Date(Date.now() + 29 * 60_000).toISOString() }));
    }),
  );
  const user = userEvent.setup();
  const { container } = open(offer('live'));
  expect(await screen.findByRole('heading', { name: 'A time for you' })).toBeInTheDocument();
  // The heading shows while the offer loads: its time comes with the offer.
  expect(await screen.findByText('10:00 AM to 10:30 AM (GMT+8)')).toBeInTheDocument();
  // Where the visit is, and for which child (issue 36).
  expect(screen.getByText(`Siti, ${schoolYears(school.name)[0].name}`)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: /map/i })).toBeInTheDocument();
  expect(await axe(container)).toHaveNoViolations();
  await user.click(screen.getByRole('button', { name: 'Book and pay' }));
  const dialog = await screen.findByRole('dialog', { name: 'Payment Summary' });
  expect(within(dialog).getByText('Aminah Binti Ali')).toBeInTheDocument();
  expect(within(dialog).getByRole('button', { name: 'Proceed to Payment' })).toBeInTheDocument();
  expect(accepted).toEqual(['offer-token-1']);
});

it('declines after asking, and says the time went to the next parent', async () => {
  server.use(http.post(apiUrl('/api/waitlist/offer/:token/decline'), () => HttpResponse.json(ok({ state: 'declined' }))));
  const user = userEvent.setup();
  open(offer('live'));
  await user.click(await screen.findByRole('button', { name: 'No thanks' }));
  await user.click(await screen.findByRole('button', { name: 'Give it up' }));
  expect(await screen.findByText('You gave up this time; it went to the next parent in line.')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'See the timetable' })).toHaveAttribute('href', '/');
});

it("the mail's decline link (?decline=1) only asks: opening it gives nothing up, a press does (issue 35)", async () => {
  const declines: string[] = [];
  server.use(
    http.get(apiUrl('/api/waitlist/offer/:token'), () => HttpResponse.json(ok(offer('live')))),
    http.post(apiUrl('/api/waitlist/offer/:token/decline'), ({ params }) => (declines.push(String(params.token)), HttpResponse.json(ok({ state: 'declined' })))),
  );
  const user = userEvent.setup();
  renderApp(<WaitlistOfferPage />, { route: '/waitlist/offer/offer-token-2?decline=1' });
  const asking = await screen.findByRole('dialog', { name: 'Give up this time?' });
  // What a mail scanner or a link preview does: open the page, press nothing.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(declines).toEqual([]);
  await user.click(within(asking).getByRole('button', { name: 'Keep the offer' }));
  expect(screen.getByRole('button', { name: 'Book and pay' })).toBeInTheDocument();
  expect(declines).toEqual([]);

  await user.click(screen.getByRole('button', { name: 'No thanks' }));
  await user.click(await screen.findByRole('button', { name: 'Give it up' }));
  expect(await screen.findByText('You gave up this time; it went to the next parent in line.')).toBeInTheDocument();
  expect(declines).toEqual(['offer-token-2']);
});

it.each([
  ['expired', 'This offer has ended: it was not paid in time, so the time went to the next parent.'],
  ['booked', 'This time is booked. Your confirmation email has the details and your manage link.'],
] as const)('a %s offer says so and leads on to the timetable', async (state, text) => {
  open(offer(state));
  expect(await screen.findByText(text)).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Book and pay' })).not.toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'See the timetable' })).toBeInTheDocument();
});

it('an unknown link says to use the latest mail, in Bahasa Melayu too', async () => {
  server.use(
    http.get(apiUrl('/api/waitlist/offer/:token'), () =>
      HttpResponse.json({ success: false, data: null, message: 'This waitlist link is not valid.', error: 'WAITLIST_LINK_INVALID' }, { status: 404 }),
    ),
  );
  await act(() => activateLocale('ms'));
  renderApp(<WaitlistOfferPage />, { route: '/waitlist/offer/nope' });
  expect(await screen.findByRole('alert')).toHaveTextContent('Pautan senarai menunggu ini tidak sah.');
});

it('says how many places a live offer holds for brothers and sisters, and the fee per child (issue 37)', async () => {
  open(offer('live', 2));
  expect(await screen.findByText('2 places at this time, one per child (pay for fewer and the rest go back)')).toBeInTheDocument();
  expect(screen.getByText('Fee per child')).toBeInTheDocument();
});

it('an offer holding two places lets the parent name up to two children, back on the details (issue 37)', async () => {
  server.use(
    http.post(apiUrl('/api/waitlist/offer/:token/accept'), () =>
      HttpResponse.json(ok({ slotId: 41, token: 'hold-token-w', expiresAt: new Date(Date.now() + 29 * 60_000).toISOString() })),
    ),
  );
  const user = userEvent.setup();
  open(offer('live', 2));
  await user.click(await screen.findByRole('button', { name: 'Book and pay' }));
  const summary = await screen.findByRole('dialog', { name: 'Payment Summary' });
  await user.click(within(summary).getByRole('button', { name: 'Back to Details' }));
  const count = await screen.findByLabelText('How many children are you booking for?');
  expect(within(count).getAllByRole('option').map((option) => option.textContent)).toEqual(['1', '2']);
});
