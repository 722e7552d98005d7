// Issue 37 (its first steps): a time that assesses several children at once. Staff give a time 3 seats; the timetable
// says its places left; two parents each book a child into it through the sandbox gateway; staff see 2 of 3 taken,
// and can lower the seats only down to what is booked. Shots: the time on a 390 px phone and a 1366 px desk, in
// English and Bahasa Melayu.
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser';
import { apiCall, nextWeekdays, showCarouselDay, slotButtonName, startJourney } from '../support/journey';
import { fillDetails, gatewayPage, onGateway, parent } from '../support/parent';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;
const [day] = nextWeekdays(1);
const phone = { width: 390, height: 844 };
const desk = { width: 1366, height: 900 };

productSuite({ staff: true }, (s) => ({ stack, browser, token } = s));

async function newPage(viewport: { width: number; height: number }, lang: 'en' | 'ms' = 'en'): Promise<Page> {
  await browser.context.addCookies([{ name: 'lang', value: lang, url: stack.urls.shell }]);
  const page = await browser.context.newPage();
  await page.setViewportSize(viewport);
  await page.goto(`${stack.urls.shell}/`);
  return page;
}

/** The time's button on the phone's carousel, named with its places left. */
async function timeOnPhone(page: Page, places: string): Promise<ReturnType<Page['getByRole']>> {
  await page.getByText('Loading available slots...').waitFor({ state: 'detached', timeout: 30_000 });
  await showCarouselDay(page, day);
  const button = page.getByRole('main').getByRole('button', { name: `${slotButtonName(day, '10:00')}, ${places}`, exact: true });
  await button.waitFor({ timeout: 30_000 });
  return button;
}

async function bookChild(page: Page, places: string, visitor: typeof parent): Promise<void> {
  await (await timeOnPhone(page, places)).click();
  const dialog = page.getByRole('dialog', { name: 'Booking Details' });
  await fillDetails(dialog, visitor);
  await dialog.getByRole('button', { name: 'Continue to Payment' }).click();
  const summary = page.getByRole('dialog', { name: 'Payment Summary' });
  await summary.getByRole('button', { name: 'Proceed to Payment' }).click();
  await gatewayPage(page);
  await onGateway(page, 'pay');
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 45_000 });
}

test('a 3-seat time: places left on the timetable, two children booked by two parents, staff see 2 of 3 taken', async () => {
  const journey = startJourney('seats');
  const added = await apiCall<unknown>(stack.urls.api, 'POST', '/slot/add', { date: day, startTime: '10:00', endTime: '10:30', seats: 3 }, token);
  expect(added.status).toBe(201);

  for (const [viewport, lang, name] of [[phone, 'en', 'en-seats-390'], [desk, 'en', 'en-seats-1366'], [phone, 'ms', 'ms-seats-390'], [desk, 'ms', 'ms-seats-1366']] as const) {
    const page = await newPage(viewport, lang);
    const words = lang === 'ms' ? '3 tempat lagi' : '3 places left';
    // The time's button says its places left, and its name says them too (what a screen reader hears).
    await page.getByRole('main').getByRole('button', { name: new RegExp(`, ${words}$`) }).first().waitFor({ timeout: 30_000 });
    await journey.shot(page, name);
    await page.close();
  }

  const first = await newPage(phone);
  await bookChild(first, '3 places left', parent);
  const second = await newPage(phone);
  await bookChild(second, '2 places left', { ...parent, name: 'Tan Mei Ling', email: 'mei.ling@example.com', phone: '0198765432', child: 'Tan Wei Jie' });
  await second.goto(`${stack.urls.shell}/`);
  await timeOnPhone(second, '1 place left');
  await journey.shot(second, 'en-seats-one-left-390');

  // Staff: each seat is a row; two are booked, one is free.
  const list = await apiCall<{ timeSlots: { rows: { id: number; seats?: number; seatsTaken?: number; childName: string | null; date: string }[] } }>(stack.urls.api, 'GET', '/slot/list', undefined, token);
  const seats = list.body.data.timeSlots.rows.filter((row) => row.date.startsWith(day));
  expect(seats).toHaveLength(3);
  expect(seats.every((row) => row.seats === 3 && row.seatsTaken === 2)).toBe(true);
  expect(seats.map((row) => row.childName).filter(Boolean).sort()).toEqual([parent.child, 'Tan Wei Jie'].sort());
  // The office: each seat a row, saying which seat and how many of the time's are taken; the time's seats changed
  // from its row, down to the children booked and no further.
  const { demoLoginFrom } = await import('../support/journey');
  const login = demoLoginFrom(stack.logs);
  const office = await newPage(desk);
  await office.goto(`${stack.urls.shell}/login`);
  await office.getByLabel('Email').fill(login.email);
  await office.getByLabel('Password').fill(login.password);
  await office.getByRole('button', { name: 'Login' }).click();
  await office.getByRole('heading', { name: 'Assessment Dashboard' }).waitFor();
  await office.getByRole('group', { name: 'Filter slots' }).getByRole('button', { name: 'Booked' }).click();
  await office.getByText(/Seat\s1\sof\s3/).first().waitFor({ timeout: 30_000 });
  await office.getByRole('button', { name: `Seats: children at a time for slot #${seats[0].id}` }).click();
  const seatsDialog = office.getByRole('dialog', { name: 'Children at a time' });
  await seatsDialog.getByLabel('Children at a time').selectOption('1');
  await seatsDialog.getByRole('button', { name: 'Save' }).click();
  await seatsDialog.getByText('2 children are booked or paying at this time, so it needs at least 2 seats.').waitFor();
  await journey.shot(office, 'desk-seats-too-few-1366');
  await seatsDialog.getByLabel('Children at a time').selectOption('2');
  await seatsDialog.getByRole('button', { name: 'Save' }).click();
  await office.getByText(/now takes 2 children at a time\./).first().waitFor();
  await seatsDialog.waitFor({ state: 'detached' });
  await office.getByText(/Seat\s1\sof\s2/).first().waitFor({ timeout: 30_000 });
  await journey.shot(office, 'desk-seats-dashboard-1366');
  await office.setViewportSize(phone);
  // On a phone the rows are cards (the table is hidden).
  const card = office.getByText(/Seat\s1\sof\s2/).filter({ visible: true }).first();
  await card.waitFor();
  await card.scrollIntoViewIfNeeded();
  await journey.shot(office, 'desk-seats-dashboard-390');

  // Two seats, both booked: parents are no longer offered the time.
  await second.reload();
  await second.getByText('Loading available slots...').waitFor({ state: 'detached', timeout: 30_000 });
  await showCarouselDay(second, day);
  expect(await second.getByRole('main').getByRole('button', { name: new RegExp(`^${slotButtonName(day, '10:00')}`) }).count()).toBe(0);

  // Creating times: "Children at a time" beside the times, at a desk.
  await office.setViewportSize(desk);
  await office.getByRole('button', { name: 'Actions' }).click();
  await office.getByRole('menuitem', { name: 'Create New Slot' }).click();
  const create = office.getByRole('dialog', { name: 'Create New Slots' });
  await create.getByLabel('Children at a time').selectOption('3');
  await create.getByText(/3 children at a time: \d+ seats in all/).waitFor();
  await journey.shot(office, 'desk-seats-create-1366');
  await journey.finish(second);
});
