// Issue 37: a booking of two children on the manage page: each child listed, one cancelled alone with that child's
// share back (the other staying booked), and the whole cancel saying it takes every child.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { brand, type ManageView } from 'shared-api';
import { activateLocale } from 'shared-ui';
import ManageBookingPage from '../../../pages/ManageBookingPage';
import { MANAGE_TOKEN, manageView, ok } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server, startMswServer } from '../../../test/server';

startMswServer();

const NOW = new Date('2026-11-25T10:00:00+08:00');
beforeEach(() => jest.useFakeTimers({ now: NOW, advanceTimers: true }));
afterEach(() => jest.useRealTimers());

const render = () => renderApp(<ManageBookingPage />, { route: `/booking/manage/${MANAGE_TOKEN}`, path: '/booking/manage/:token' });
const child = (position: number, childName: string, school: string, childYear: string, amountSen: number, extra: object = {}) => ({
  position,
  childName,
  childYear,
  selectedSchool: school,
  feeSen: position === 1 ? amountSen : 5000,
  discountSen: position === 1 ? 0 : 5000 - amountSen,
  amountSen,
  cancelled: false,
  refundSen: null,
  cancelQuote: { percent: 100, amountSen },
  ...extra,
});
const twoChildren = manageView({
  amountPaidSen: 12000,
  cancelQuote: { percent: 100, amountSen: 12000 },
  children: [child(1, 'Adam Firdaus', brand.schools[1].name, 'Form 1', 7500), child(2, 'Siti Hajar', brand.schools[0].name, 'Year 1', 4500)],
});

test("each child is listed; cancelling one sends that child and its share; the page shows the other still booked", async () => {
  const bodies: unknown[] = [];
  const after: ManageView = {
    ...twoChildren,
    cancelQuote: { percent: 100, amountSen: 7500 },
    children: [
      child(1, 'Adam Firdaus', brand.schools[1].name, 'Form 1', 7500, { cancelQuote: null }),
      child(2, 'Siti Hajar', brand.schools[0].name, 'Year 1', 4500, { cancelled: true, refundSen: 4500, cancelQuote: null }),
    ],
  };
  server.use(
    http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(ok(twoChildren))),
    http.post(apiUrl('/api/booking/manage/:token/cancel'), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(ok(after));
    }),
  );
  const user = userEvent.setup();
  render();
  const children = await screen.findByRole('region', { name: 'Children' });
  expect(within(children).getByText('Adam Firdaus')).toBeInTheDocument();
  expect(within(children).getByText(/Year 1, Seri Ilmu Private Primary: RM 45/)).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Cancel Siti Hajar only' }));
  const dialog = await screen.findByRole('dialog', { name: "Cancel Siti Hajar's visit?" });
  expect(within(dialog).getByText('Your other children stay booked at the same time.')).toBeInTheDocument();
  // What was paid for her, and what comes back.
  expect(within(dialog).getAllByText('RM 45')).toHaveLength(2);
  await user.click(within(dialog).getByRole('button', { name: 'Cancel Siti Hajar' }));
  await waitFor(() => expect(bodies).toEqual([{ expectedRefundSen: 4500, child: 2 }]));
  expect(await within(await screen.findByRole('region', { name: 'Children' })).findByText('Cancelled')).toBeInTheDocument();
  // The last child left is cancelled with the booking, not alone.
  expect(screen.queryByRole('button', { name: /only$/ })).not.toBeInTheDocument();
});

test('the whole cancel says it takes every child still booked', async () => {
  server.use(http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(ok(twoChildren))));
  const user = userEvent.setup();
  render();
  await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
  expect(within(dialog).getByText('Cancel booking cancels the visit of every child still booked.')).toBeInTheDocument();
  expect(within(dialog).getAllByText('RM 120').length).toBeGreaterThan(0);
});

test("one child's cancel names that child's own school", async () => {
  server.use(http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(ok(twoChildren))));
  const user = userEvent.setup();
  render();
  await user.click(await screen.findByRole('button', { name: 'Cancel Siti Hajar only' }));
  const dialog = await screen.findByRole('dialog', { name: "Cancel Siti Hajar's visit?" });
  expect(within(dialog).getByText(new RegExp(brand.schools[0].name))).toBeInTheDocument();
  expect(within(dialog).queryByText(new RegExp(brand.schools[1].name))).not.toBeInTheDocument();
});

test('after one child was cancelled alone, the whole cancel concerns what the children still booked paid; the last child left is not offered alone', async () => {
  // Siti cancelled without a refund; Adam and Hana still booked. The server here quotes Hana alone too: the page still offers her.
  const three = manageView({
    amountPaidSen: 16500,
    cancelQuote: { percent: 100, amountSen: 12000 },
    children: [
      child(1, 'Adam Firdaus', brand.schools[1].name, 'Form 1', 7500),
      child(2, 'Siti Hajar', brand.schools[0].name, 'Year 1', 4500, { cancelled: true, refundSen: 0, cancelQuote: null }),
      child(3, 'Hana Sofea', brand.schools[0].name, 'Year 2', 4500),
    ],
  });
  server.use(http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(ok(three))));
  const user = userEvent.setup();
  render();
  const children = await screen.findByRole('region', { name: 'Children' });
  expect(within(children).getByText(/Year 1, Seri Ilmu Private Primary: RM 45/)).toHaveTextContent('Cancelled (no refund for this child)');
  expect(screen.getAllByRole('button', { name: /only$/ }).map((button) => button.textContent)).toEqual(['Cancel Adam Firdaus only', 'Cancel Hana Sofea only']);

  await user.click(screen.getByRole('button', { name: 'Cancel booking' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
  expect(within(dialog).getByText('Paid for the children still booked').nextElementSibling).toHaveTextContent('RM 120');
  expect(within(dialog).queryByText('RM 165')).not.toBeInTheDocument();
});

test('with one child left booked (even were a quote sent for them), no child is offered alone: Cancel booking cancels them', async () => {
  const oneLeft = manageView({
    ...twoChildren,
    children: [
      child(1, 'Adam Firdaus', brand.schools[1].name, 'Form 1', 7500),
      child(2, 'Siti Hajar', brand.schools[0].name, 'Year 1', 4500, { cancelled: true, refundSen: 4500, cancelQuote: null }),
    ],
  });
  server.use(http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(ok(oneLeft))));
  render();
  const children = await screen.findByRole('region', { name: 'Children' });
  expect(within(children).getByText(/Siti Hajar|Year 1/, { selector: 'dd' })).toHaveTextContent('Cancelled (RM 45 refunded for this child)');
  expect(screen.getByRole('button', { name: 'Cancel booking' })).toBeEnabled();
  expect(screen.queryByRole('button', { name: /only$/ })).not.toBeInTheDocument();
});

describe.each<['ms' | 'zh', string, string, string, string]>([
  ['ms', 'Batalkan Siti Hajar sahaja', 'Batalkan lawatan Siti Hajar?', 'Anak-anak lain kekal ditempah.', 'Batalkan tempahan membatalkan lawatan setiap anak yang masih ditempah.'],
  ['zh', '仅取消 Siti Hajar', '取消Siti Hajar的预约？', '其他孩子的预约保持不变。', '取消预约将取消所有仍有预约的孩子。'],
])('in %s', (locale, only, title, others, all) => {
  beforeEach(() => act(() => activateLocale(locale)));
  afterEach(() => act(() => activateLocale('en')));

  it("offers one child's cancel, says the others stay booked, and that the whole cancel takes every child", async () => {
    server.use(http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(ok(twoChildren))));
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: only }));
    const dialog = await screen.findByRole('dialog', { name: title });
    expect(within(dialog).getByText(others)).toBeInTheDocument();
    expect(within(dialog).queryByText(all)).not.toBeInTheDocument();
  });
});

test("a child staff moved alone to another time has that time beside them; the booking's time stays the visit's", async () => {
  const moved = manageView({
    ...twoChildren,
    children: [twoChildren.children![0], { ...twoChildren.children![1], time: { date: '2026-12-03', startTime: '10:00', endTime: '10:30' } }],
  });
  server.use(http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(ok(moved))));
  render();
  const children = await screen.findByRole('region', { name: 'Children' });
  expect(within(children).getByText(/at another time: Thursday,? 3 December 2026, 10:00 AM – 10:30 AM \(GMT\+8\)/)).toBeInTheDocument();
  expect(within(children).getAllByText(/at another time/)).toHaveLength(1);
});
