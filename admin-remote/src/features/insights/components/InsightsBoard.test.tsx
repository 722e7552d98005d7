import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { addDays, todayInMY } from 'shared-api';
import { insightsQuerySchema, type FillRate, type Money } from 'shared-api/contract';
import { issueToken } from '../../../test/db';
import { API } from '../../../test/handlers';
import { server, setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';
import { CHART_IDS, type ChartId, type InsightsData } from '../api/insightsApi';

setupMswServer();
afterEach(() => jest.restoreAllMocks());

const PRIMARY = 'Seri Ilmu Private Primary';
const SECONDARY = 'Seri Ilmu Private Secondary';
const INTERNATIONAL = 'Seri Ilmu International';

const fillRate = (booked: number): FillRate => ({
  weeks: [
    {
      weekStart: '2026-03-02', seatsOffered: 8, seatsBooked: booked, fillRatePercent: Math.round((booked / 8) * 100),
      bySchool: [{ school: PRIMARY, seatsBooked: booked }],
    },
  ],
});
const money = (school?: string): Money => ({
  schools: [
    { school: PRIMARY, paidSen: 14500, refundedSen: 4500, netSen: 10000 },
    { school: SECONDARY, paidSen: 15050, refundedSen: 0, netSen: 15050 },
    { school: INTERNATIONAL, paidSen: 0, refundedSen: 0, netSen: 0 },
  ].filter((s) => !school || s.school === school),
});
const answers = (school?: string): InsightsData => ({
  'fill-rate': fillRate(school ? 2 : 6),
  'popular-times': { cells: [{ weekday: 1, time: '09:00', seatsBooked: 3 }] },
  waitlist: {
    weeks: [{ weekStart: '2026-03-02', entries: 4 }],
    offers: { made: 3, accepted: 1, passed: 1, expired: 1, cancelled: 0, open: 0 },
    rebooking: { freed: 2, rebooked: 2, medianMinutes: 1545 },
  },
  checkout: {
    holds: 13, started: 11, paid: 7, failed: 1, cancelled: 1, expired: 1, open: 1, holdToPaidPercent: 53.8,
    byMethod: [{ method: 'fpx', started: 11, paid: 7, failed: 1, cancelled: 1, expired: 1, open: 1 }],
  },
  attendance: { schools: [{ school: PRIMARY, cancelledByParent: 2, cancelledByStaff: 1, moved: 3 }] },
  money: money(school),
});

/** Every query the page sent, per chart. */
const requests: { chart: ChartId; query: URLSearchParams }[] = [];

beforeEach(() => {
  // jsdom draws no canvas (it reports getContext as not implemented): the chart stays an empty, labelled canvas.
  jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  requests.length = 0;
  server.use(
    http.get(`${API}/staff/insights/:chart`, ({ request, params }) => {
      const query = new URL(request.url).searchParams;
      const chart = params.chart as ChartId;
      requests.push({ chart, query });
      const parsed = insightsQuerySchema.safeParse(Object.fromEntries(query));
      if (!parsed.success) return HttpResponse.json({ success: false, data: null, message: parsed.error.issues[0].message, error: 'VALIDATION_ERROR' }, { status: 400 });
      return HttpResponse.json({ success: true, data: answers(parsed.data.school)[chart], message: 'OK' });
    }),
  );
  Cookies.set('token', issueToken(1), { path: '/' });
});

const table = (title: string) => screen.getByRole('table', { name: `${title}: the numbers` });
const rowsOf = (t: HTMLElement) => within(t).getAllByRole('row').map((row) => Array.from(row.querySelectorAll('th, td'), (c) => c.textContent));

describe('/secured/insights', () => {
  it('is linked from the staff bar; each chart has a table of the numbers the API answered', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Insights' }));
    expect(currentPath()).toBe('/secured/insights');
    expect(await screen.findByRole('heading', { name: 'Insights', level: 1 })).toBeInTheDocument();
    for (const name of ['Fill rate per week', 'Bookings per weekday and start time', 'Demand beyond supply', 'Checkout funnel', 'Cancellations and moves', 'Fees'])
      expect(screen.getByRole('heading', { name, level: 2 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('table')).toHaveLength(6));
    expect(rowsOf(table('Fees'))).toEqual([
      ['School', 'Paid', 'Refunded', 'Net'],
      [PRIMARY, 'RM 145', 'RM 45', 'RM 100'],
      [SECONDARY, 'RM 150.50', 'RM 0', 'RM 150.50'],
      [INTERNATIONAL, 'RM 0', 'RM 0', 'RM 0'],
    ]);
    expect(rowsOf(table('Fill rate per week'))).toEqual([
      ['Week of', 'Seats offered', 'Seats booked', 'Fill rate', `Booked by ${PRIMARY}`],
      ['2 Mar 2026', '8', '6', '75%', '6'],
    ]);
    expect(rowsOf(table('Checkout funnel'))).toContainEqual(['Hold to paid', '53.8%', '', '', '', '', '']);
    expect(rowsOf(table('Demand beyond supply'))).toContainEqual(['Median time to book again', '1545 min']);
    expect(rowsOf(table('Bookings per weekday and start time'))).toEqual([
      ['Weekday', 'Start time', 'Seats booked'],
      ['Mon', '9:00 AM', '3'],
    ]);
    // The default period is the next 4 weeks from today in GMT+8, asked once per chart.
    const today = todayInMY();
    expect(requests.map((r) => r.chart).sort()).toEqual([...CHART_IDS].sort());
    for (const { query } of requests) expect(Object.fromEntries(query)).toEqual({ from: today, to: addDays(today, 27) });
    expect(screen.getAllByRole('button', { name: /^Download CSV/ })).toHaveLength(6);
    expect(screen.getAllByRole('img', { name: /^Chart: .*Its numbers are in the table beside it\.$/ })).toHaveLength(6);
  });

  it('the school filter and the period change what is asked and shown', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/insights');
    await waitFor(() => expect(screen.getAllByRole('table')).toHaveLength(6));

    requests.length = 0;
    await user.selectOptions(screen.getByLabelText('School'), SECONDARY);
    await waitFor(() => expect(rowsOf(table('Fees'))).toEqual([['School', 'Paid', 'Refunded', 'Net'], [SECONDARY, 'RM 150.50', 'RM 0', 'RM 150.50']]));
    expect(rowsOf(table('Fill rate per week'))[1]).toEqual(['2 Mar 2026', '8', '2', '25%', '2']);
    expect(new Set(requests.map((r) => r.query.get('school')))).toEqual(new Set([SECONDARY]));

    requests.length = 0;
    await user.selectOptions(screen.getByLabelText('Period'), 'custom');
    expect(screen.getByRole('status')).toHaveTextContent('Choose both dates.');
    await user.type(screen.getByLabelText('From'), '2026-03-15');
    await user.type(screen.getByLabelText('To'), '2026-03-02');
    expect(screen.getAllByText('The start date must not be after the end date.').length).toBeGreaterThan(0);
    expect(requests).toEqual([]);
    await user.clear(screen.getByLabelText('From'));
    await user.type(screen.getByLabelText('From'), '2026-03-01');
    await waitFor(() => expect(requests.length).toBeGreaterThanOrEqual(6));
    for (const { query } of requests) expect(Object.fromEntries(query)).toEqual({ from: '2026-03-01', to: '2026-03-02', school: SECONDARY });
    expect(screen.getByRole('status')).toHaveTextContent('1 Mar 2026 to 2 Mar 2026 (GMT+8)');
  });
});
