// Journey 6: staff log in with the printed demo account, read the dashboard, create, find, inspect and delete slots,
// and the public timetable follows each change; a wrong password and a revoked token are handled.
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser';
import {
  addDays,
  addSlot,
  apiCall,
  demoLoginFrom,
  eventually,
  nextWeekdays,
  phone,
  slotButtonName,
  staffSlots,
  staffToken,
  showCarouselDay,
  startJourney,
  weekdaysBetween,
} from '../support/journey';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;

// No demo slots: every number on the dashboard is one this test made.
productSuite({}, (s) => ({ stack, browser } = s));

const stat = (page: Page, label: string) => page.getByLabel('Slot statistics').getByText(label).locator('xpath=following-sibling::*[1]');

async function expectStats(page: Page, expected: Record<string, number>) {
  for (const [label, value] of Object.entries(expected)) {
    await eventually(async () => (await stat(page, label).innerText()) === String(value), `${label} = ${value}`, 15_000);
  }
}

async function publicTimetable(): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize(phone);
  await page.goto(`${stack.urls.shell}/`);
  return page;
}

const slotButton = (page: Page, date: string, time: string) =>
  page.getByRole('main').getByRole('button', { name: slotButtonName(date, time), exact: true });

test('journey staff: login, dashboard, create, booked, details, delete; the timetable follows', async () => {
  const journey = startJourney('staff-dashboard');
  const login = demoLoginFrom(stack.logs);
  expect(login.email).toBe('admin@example.com');

  // The scene: one slot booked by the school on the phone, one still free, on the next weekday.
  const token = await staffToken(stack.urls.api, login);
  const [day] = nextWeekdays(1);
  const bookedId = await addSlot(stack.urls.api, token, day, '15:00');
  const freeId = await addSlot(stack.urls.api, token, day, '15:30');
  const booking = await apiCall(
    stack.urls.api,
    'PUT',
    `/slot/${bookedId}`,
    {
      id: bookedId,
      visitorName: 'Aisyah Rahman',
      visitorEmail: 'aisyah.parent@example.com',
      visitorContactNo: '0123456789',
      selectedSchool: 'Seri Ilmu International',
      childName: 'Nur Iman',
      childYear: 'Year 7',
    },
    token,
  );
  expect(booking.status).toBe(200);

  const timetable = await publicTimetable();
  await showCarouselDay(timetable, day);
  await slotButton(timetable, day, '15:30').waitFor();
  expect(await slotButton(timetable, day, '15:00').count()).toBe(0);

  const page = await browser.context.newPage();
  await page.goto(`${stack.urls.shell}/login`);
  await page.getByLabel('Email').fill(login.email);
  await page.getByLabel('Password').fill(`${login.password}-wrong`);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByText('The email or password is incorrect. Please try again.').waitFor();
  expect(new URL(page.url()).pathname).toBe('/login');

  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/secured/dashboard');
  await page.getByRole('heading', { name: 'Assessment Dashboard' }).waitFor();
  await page.getByText('Manage your assessment time slots and bookings').waitFor();
  await expectStats(page, { 'Total Slots': 2, 'Booked Slots': 1, 'Available Slots': 1, "Today's Slots": 0 });

  // Create one slot a day at 5 PM from tomorrow over a week that includes a weekend.
  const start = addDays(day, 0);
  const end = addDays(start, 6);
  const weekdays = weekdaysBetween(start, end);
  await page.getByRole('button', { name: /Actions/ }).click();
  await page.getByRole('menuitem', { name: 'Create New Slot' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Slots' });
  await dialog.getByLabel('Start date').fill(start);
  await dialog.getByLabel('End date').fill(end);
  await dialog.getByLabel('Start time').fill('17:00');
  // Every weekday of the range, public holidays too (the dialog skips them by default).
  await dialog.getByRole('checkbox', { name: 'Skip public holidays' }).uncheck();
  await dialog.getByRole('button', { name: 'Create Slots' }).click();
  await page.getByText(`Successfully created ${weekdays.length} slot(s)!`).first().waitFor();
  await dialog.waitFor({ state: 'detached' });
  await expectStats(page, { 'Total Slots': 2 + weekdays.length, 'Booked Slots': 1, 'Available Slots': 1 + weekdays.length });
  const created = (await staffSlots(stack.urls.api, token)).filter((slot) => slot.startTime.startsWith('17:00'));
  expect(created.map((slot) => slot.date.slice(0, 10)).sort()).toEqual(weekdays);

  await timetable.reload();
  for (const date of weekdays) {
    await showCarouselDay(timetable, date);
    await slotButton(timetable, date, '17:00').waitFor();
  }

  // The parent's booking under Booked; its details; the email copied.
  await page.getByRole('group', { name: 'Filter slots' }).getByRole('button', { name: 'Booked' }).click();
  await page.getByText('Showing: Booked Slots').waitFor();
  await page.getByRole('button', { name: `View Details of slot #${bookedId}` }).click();
  const details = page.getByRole('dialog', { name: 'Appointment Details' });
  await details.getByText('Aisyah Rahman').waitFor();
  await details.getByText('012-345 6789').waitFor();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.urls.shell });
  await details.getByRole('button', { name: /^Copy Email/ }).click();
  await details.getByRole('button', { name: /^Copied!/ }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('aisyah.parent@example.com');
  await page.keyboard.press('Escape');
  await details.waitFor({ state: 'detached' });

  // Delete the free 3:30 PM slot: gone from the dashboard and from the public page.
  await page.getByRole('group', { name: 'Filter slots' }).getByRole('button', { name: 'Available' }).click();
  await page.getByText('Showing: Available Slots').waitFor();
  await page.getByRole('button', { name: `Delete slot #${freeId}` }).click();
  const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete slot' }));
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('Slot deleted successfully!').first().waitFor();
  await page.getByRole('button', { name: `Delete slot #${freeId}` }).waitFor({ state: 'detached' });
  await expectStats(page, { 'Total Slots': 1 + weekdays.length, 'Available Slots': weekdays.length });
  await timetable.reload();
  await showCarouselDay(timetable, day);
  await slotButton(timetable, day, '17:00').waitFor();
  expect(await slotButton(timetable, day, '15:30').count()).toBe(0);

  await journey.finish(page);
  await page.setViewportSize(phone);
  await journey.shot(page, 'staff-dashboard-phone');
});

test('journey staff-session: a revoked token sends staff back to /login', async () => {
  const journey = startJourney('staff-session');
  const login = demoLoginFrom(stack.logs);
  const page = await browser.context.newPage();
  await page.goto(`${stack.urls.shell}/login`);
  await page.getByLabel('Email').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('heading', { name: 'Assessment Dashboard' }).waitFor();

  // The session ends on the server (logout elsewhere, or expiry): the next call answers 401.
  const cookie = (await browser.context.cookies(stack.urls.shell)).find((c) => c.name === 'token');
  expect(cookie).toBeDefined();
  const logout = await apiCall(stack.urls.api, 'POST', '/auth/logout', undefined, cookie!.value);
  expect(logout.status).toBeLessThan(300);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.waitForURL('**/login');
  await page.getByLabel('Password').waitFor();
  expect((await browser.context.cookies(stack.urls.shell)).find((c) => c.name === 'token')).toBeUndefined();

  // A token that was never valid (tampered or expired cookie) on a deep link: straight to /login.
  await browser.context.addCookies([{ name: 'token', value: 'expired.or.tampered', url: stack.urls.shell }]);
  // 'commit': the shell may already be redirecting to /login before the dashboard URL's load event.
  await page.goto(`${stack.urls.shell}/secured/dashboard`, { waitUntil: 'commit' });
  await page.waitForURL('**/login');
  await page.getByLabel('Password').waitFor();
  await journey.finish(page);
});
