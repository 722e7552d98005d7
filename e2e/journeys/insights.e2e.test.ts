// Issue 41: with SEED_SEASON=1 (a past term on top of the demo timetable), staff open Insights: every chart has
// figures, each table shows the API's numbers, the school filter and the period change them, axe finds nothing;
// photographed at a 1366 px desk and a 390 px phone.
import type { Page } from 'playwright-core';
import { formatRM, type FillRate, type Money, type CheckoutFunnel } from 'shared-api/contract';
import { axeViolations, describeViolations } from '../support/axe';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { addDays, apiCall, demoLoginFrom, eventually, staffToken, startJourney, todayMY } from '../support/journey';
import { startStack, type Stack } from '../support/product';

jest.setTimeout(600_000);

const desk = { width: 1366, height: 768 };
const phone = { width: 390, height: 844 };
let stack: Stack;
let browser: LaunchedBrowser;
let token: string;

beforeAll(async () => {
  stack = await startStack({ apiEnv: { SEED_SEASON: '1' } });
  browser = await launchBrowser({ viewport: desk });
  token = await staffToken(stack.urls.api, demoLoginFrom(stack.logs));
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const from = addDays(todayMY(), -63);
const to = addDays(todayMY(), 20);
async function figures<T>(chart: string, school?: string): Promise<T> {
  const query = new URLSearchParams({ from, to, ...(school ? { school } : {}) });
  const res = await apiCall<T>(stack.urls.api, 'GET', `/staff/insights/${chart}?${query}`, undefined, token);
  expect(res.status).toBe(200);
  return res.body.data;
}
const rowsOf = (page: Page, title: string) =>
  page
    .getByRole('table', { name: `${title}: the numbers` })
    .evaluate((table) => Array.from(table.querySelectorAll('tbody tr'), (row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent ?? '')));

test('staff see the season on Insights: every chart with the API numbers, filters, axe, desk and phone', async () => {
  const journey = startJourney('insights');
  const login = demoLoginFrom(stack.logs);
  const page = await browser.context.newPage();
  await page.setViewportSize(desk);
  await page.goto(`${stack.urls.shell}/login`);
  await page.getByLabel('Email').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/secured/dashboard');
  await page.getByRole('link', { name: 'Insights' }).click();
  await page.waitForURL('**/secured/insights');

  await page.getByLabel('Period').selectOption('custom');
  await page.getByLabel('From').fill(from);
  await page.getByLabel('To').fill(to);
  const titles = ['Fill rate per week', 'Bookings per weekday and start time', 'Demand beyond supply', 'Checkout funnel', 'Cancellations and moves', 'Fees'];
  for (const title of titles) await page.getByRole('table', { name: `${title}: the numbers` }).waitFor();
  for (const title of titles) expect((await rowsOf(page, title)).length).toBeGreaterThan(0);

  const money = await figures<Money>('money');
  expect(await rowsOf(page, 'Fees')).toEqual(money.schools.map((s) => [s.school, formatRM(s.paidSen), formatRM(s.refundedSen), formatRM(s.netSen)]));
  expect(money.schools.every((s) => s.paidSen > 0)).toBe(true);
  const fill = await figures<FillRate>('fill-rate');
  expect((await rowsOf(page, 'Fill rate per week')).map((row) => [row[1], row[2]])).toEqual(fill.weeks.map((w) => [String(w.seatsOffered), String(w.seatsBooked)]));
  const funnel = await figures<CheckoutFunnel>('checkout');
  expect(await rowsOf(page, 'Checkout funnel')).toContainEqual(['Hold to paid', `${funnel.holdToPaidPercent}%`, '', '', '', '', '']);

  const violations = describeViolations(await axeViolations(page));
  expect(violations).toEqual([]);
  await journey.shot(page, 'desk-insights');

  // One school: its figures only.
  const school = money.schools[1].school;
  await page.getByLabel('School').selectOption(school);
  const oneSchool = await figures<Money>('money', school);
  const expected = JSON.stringify(oneSchool.schools.map((s) => [s.school, formatRM(s.paidSen), formatRM(s.refundedSen), formatRM(s.netSen)]));
  await eventually(async () => (JSON.stringify(await rowsOf(page, 'Fees')) === expected ? true : undefined), `the fees of ${school} alone`);

  // Another period: this week has one week row.
  await page.getByLabel('Period').selectOption('thisWeek');
  await eventually(async () => ((await rowsOf(page, 'Fill rate per week')).length === 1 ? true : undefined), 'one week of fill rate');

  await page.setViewportSize(phone);
  await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
  expect(describeViolations(await axeViolations(page))).toEqual([]);
  await journey.finish(page, 'phone-insights');
});
