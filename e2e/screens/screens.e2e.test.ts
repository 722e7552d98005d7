// The product's main screens, photographed as screen-*.png (`npm run screenshots` writes them to docs/screenshots): the public timetable and booking dialog
// on a desktop and a touch phone, and the staff login, dashboard and dialogs, against the demo seed.
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { demoLoginFrom, desktop, publicSlots, showCarouselDay, startJourney } from '../support/journey';
import { launchTouchPhone, showSlotDay, slotButton } from '../support/parent';
import { startStack, type Stack } from '../support/product';

const phoneScreen = { width: 360, height: 800 };

let stack: Stack;
let browser: LaunchedBrowser;
let touch: LaunchedBrowser;

beforeAll(async () => {
  // The demo seed (on by default): three weeks of weekday slots, a few of them booked.
  stack = await startStack();
  [browser, touch] = await Promise.all([launchBrowser({ viewport: desktop }), launchTouchPhone(phoneScreen)]);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await touch?.close();
  await stack?.stop();
});

/** The timetable after its slots have loaded (heading shown, loading text gone). */
async function timetableLoaded(page: Page): Promise<void> {
  await page.goto(`${stack.urls.shell}/`);
  await page.getByRole('heading', { name: 'Book an assessment visit' }).waitFor({ timeout: 30_000 });
  await page.getByText('Loading available slots...').waitFor({ state: 'detached', timeout: 30_000 });
}

/** The Booking Details step with the school options priced (the fee in each option). */
async function bookingDetailsReady(page: Page): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: 'Booking Details' });
  await dialog.waitFor();
  await dialog.getByLabel('Visitor Name').waitFor();
  await dialog.getByLabel('Selected School').locator('option', { hasText: 'RM' }).first().waitFor({ state: 'attached' });
  return dialog;
}

/** Cancel closes the dialog, which releases the hold. */
async function cancelBooking(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Dialogs fade and zoom in: wait until no animation is running so the picture shows the settled screen. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'), undefined, { timeout: 10_000 });
}

const time24 = (time: string) => time.slice(0, 5);

test('screens: timetable, booking details, login, dashboard and its dialogs', async () => {
  const journey = startJourney('screens');
  const slots = await publicSlots(stack.urls.api);
  expect(slots.length).toBeGreaterThan(0);
  // The first upcoming bookable slot (the list is in time order) is shown on both layouts.
  const first = [...slots].sort((a, b) => `${a.date}${a.startTime}`.localeCompare(`${b.date}${b.startTime}`))[0];
  const day = first.date.slice(0, 10);
  const time = time24(first.startTime);

  // Desktop timetable: Monday-Friday of this GMT+8 week, as a table.
  const desk = await browser.context.newPage();
  await desk.setViewportSize(desktop);
  await timetableLoaded(desk);
  const caption = desk.getByRole('main').locator('caption').first();
  await caption.waitFor();
  expect(await desk.locator('[aria-label="Next 14 weekdays"]').isVisible()).toBe(false);
  await settled(desk);
  await journey.shot(desk, 'screen-timetable-desktop');

  // Desktop booking details on the first bookable slot (Next week if it is not in this one).
  const deskButton = await showSlotDay(desk, day, time);
  await deskButton.click();
  const deskDialog = await bookingDetailsReady(desk);
  await settled(desk);
  await journey.shot(desk, 'screen-booking-details-desktop');
  await cancelBooking(deskDialog);

  // Phone timetable: the 14-weekday carousel, on its first day.
  const phonePage = await touch.context.newPage();
  await timetableLoaded(phonePage);
  const carousel = phonePage.locator('[aria-label="Next 14 weekdays"]');
  await carousel.waitFor();
  expect(await carousel.locator('[aria-roledescription="slide"]').count()).toBe(14);
  expect(await phonePage.getByRole('main').locator('table').first().isVisible().catch(() => false)).toBe(false);
  await settled(phonePage);
  await journey.shot(phonePage, 'screen-timetable-phone');

  // Phone booking details: the dialog full-screen, opened by a tap.
  await showCarouselDay(phonePage, day, true);
  const phoneButton = slotButton(phonePage, day, time);
  await phoneButton.waitFor();
  await phoneButton.tap();
  const phoneDialog = await bookingDetailsReady(phonePage);
  await settled(phonePage);
  await journey.shot(phonePage, 'screen-booking-details-phone');
  await cancelBooking(phoneDialog);
  // The hold is released: the slot is public again.
  expect((await publicSlots(stack.urls.api)).some((slot) => slot.id === first.id)).toBe(true);

  // Staff login page.
  const login = demoLoginFrom(stack.logs);
  const staff = await browser.context.newPage();
  await staff.setViewportSize(desktop);
  await staff.goto(`${stack.urls.shell}/login`);
  await staff.getByRole('heading', { name: 'Staff login' }).waitFor();
  await staff.getByLabel('Password').waitFor();
  await staff.getByRole('button', { name: 'Login' }).waitFor();
  await settled(staff);
  await journey.shot(staff, 'screen-login');

  // Dashboard, Available then Booked.
  await staff.getByLabel('Email').fill(login.email);
  await staff.getByLabel('Password').fill(login.password);
  await staff.getByRole('button', { name: 'Login' }).click();
  await staff.waitForURL('**/secured/dashboard');
  await staff.getByRole('heading', { name: 'Assessment Dashboard' }).waitFor();
  const filter = staff.getByRole('group', { name: 'Filter slots' });
  await filter.getByRole('button', { name: 'Available' }).click();
  await staff.getByText('Showing: Available Slots').waitFor();
  await staff.getByRole('button', { name: /^Delete slot #/ }).first().waitFor();
  await settled(staff);
  await journey.shot(staff, 'screen-dashboard-available');

  await filter.getByRole('button', { name: 'Booked' }).click();
  await staff.getByText('Showing: Booked Slots').waitFor();
  const viewDetails = staff.getByRole('button', { name: /^View Details of slot #/ }).first();
  await viewDetails.waitFor();
  // The picture shows the table: who booked, after the spec's columns.
  await staff.locator('caption', { hasText: /booked slots? found/ }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await settled(staff);
  await journey.shot(staff, 'screen-dashboard-booked');

  // Appointment details of a booked slot (a demo visitor).
  await viewDetails.click();
  const details = staff.getByRole('dialog', { name: 'Appointment Details' });
  await details.getByText(/@example\.com/).first().waitFor();
  await details.getByRole('button', { name: /^Copy Email/ }).waitFor();
  await settled(staff);
  await journey.shot(staff, 'screen-details-dialog');
  await staff.keyboard.press('Escape');
  await details.waitFor({ state: 'detached' });

  // Actions → Create New Slot.
  await staff.getByRole('button', { name: /Actions/ }).click();
  await staff.getByRole('menuitem', { name: 'Create New Slot' }).click();
  const create = staff.getByRole('dialog', { name: 'Create New Slots' });
  await create.getByLabel('Start date').waitFor();
  await create.getByRole('button', { name: 'Create Slots' }).waitFor();
  // The server's preview of the default choices.
  await create.getByText(/slots? will be created|No slots will be created/).first().waitFor();
  await settled(staff);
  await journey.finish(staff, 'screen-create-dialog');
});
