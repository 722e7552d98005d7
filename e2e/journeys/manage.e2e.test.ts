// Issue 13's journey: a parent pays, opens the manage link from the confirmation's .eml file (mail to files, the
// default), moves the visit to another slot, then cancels it; the refund, the mails and the freed slots are checked.
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, apiCall, eventually, nextWeekdays, phone, publicSlots, slotButtonName, startJourney } from '../support/journey';
import { emlFiles, icsOf, mailTo } from '../support/mail';
import { bookToGateway, onGateway, parent, showSlotDay } from '../support/parent';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;
let adminEmail: string;
// At least four days ahead: before the 24-hour cut-off and inside the 48-hour full-refund window of brand.config.json.
const days = nextWeekdays(6);
const [firstDay, secondDay] = [days[3], days[4]];

productSuite({ staff: true }, (s) => ({ stack, browser, token, adminEmail } = s));

const mailDir = () => `${stack.dataDir}/mail`;
/** The first .eml file (oldest first) to `address` whose subject matches. */
const mailFile = (address: string, subject: RegExp): Promise<ParsedMail> =>
  eventually(async () => (await emlFiles(mailDir())).find((mail) => mailTo(address)(mail) && subject.test(mail.subject ?? '')), `mail to ${address}: ${subject}`);
const icsField = (ics: string, name: string) => new RegExp(`^${name}[:;](.*)$`, 'm').exec(ics)?.[1]?.trim();
/** The .ics a page offers ("Download .ics file", a data: URL), as the parent's calendar gets it. */
const offeredIcs = async (page: Page): Promise<string> => {
  const href = await page.getByRole('link', { name: 'Download .ics file' }).getAttribute('href');
  return decodeURIComponent(href!.replace(/^data:text\/calendar;charset=utf-8,/, ''));
};
/** What makes two invitations one event at one time and place: UID, SEQUENCE, start, end, LOCATION (folding undone). */
const sameEvent = (ics: string) => {
  const unfolded = ics.replace(/\r\n[ \t]/g, '');
  return Object.fromEntries(['UID', 'SEQUENCE', 'DTSTART', 'DTEND', 'LOCATION'].map((name) => [name, icsField(unfolded, name)]));
};

test('journey manage: pay, open the .eml manage link, reschedule, cancel with refund; mails sent and both slots free again', async () => {
  const journey = startJourney('parent-manages-booking');
  const firstSlot = await addSlot(stack.urls.api, token, firstDay, '10:00');
  const secondSlot = await addSlot(stack.urls.api, token, secondDay, '11:00');

  const page = await browser.context.newPage();
  await page.setViewportSize(phone);
  await page.goto(`${stack.urls.shell}/`);
  await bookToGateway(page, firstDay, '10:00');
  await onGateway(page, 'pay');
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 45_000 });
  // The browser that paid gets its own link on the receipt.
  await page.getByRole('link', { name: 'Change or cancel this booking' }).waitFor();

  // The link in the confirmation mail, as the parent's mail program shows it.
  const confirmation = await mailFile(parent.email, /^Booking confirmed/);
  const link = /https?:\/\/\S+\/booking\/manage\/[A-Za-z0-9_-]{43}/.exec(confirmation.text ?? '')?.[0];
  expect(link).toBeDefined();
  const confirmationIcs = icsOf(confirmation)!;
  const uid = icsField(confirmationIcs, 'UID');
  expect(uid).toBeTruthy();
  // The receipt's "Add to calendar" is the mailed invitation's event (issue 25: one invitation builder).
  expect(sameEvent(await offeredIcs(page))).toEqual(sameEvent(confirmationIcs));

  const manage = await browser.context.newPage();
  await manage.setViewportSize(phone);
  await manage.goto(link!);
  await manage.getByRole('heading', { level: 1, name: 'Manage your booking' }).waitFor();
  const main = manage.getByRole('main');
  await main.getByText(parent.school, { exact: true }).first().waitFor();
  await main.getByText(/10:00 AM – 10:30 AM/).first().waitFor();
  await main.getByText('Booked and paid').waitFor();

  // Reschedule to the other slot.
  await manage.getByRole('button', { name: 'Change date or time' }).click();
  const picker = manage.getByRole('dialog', { name: 'Change date or time' });
  const secondDayGroup = picker.getByRole('group', { name: slotButtonName(secondDay, '11:00').split(', ')[1] });
  await secondDayGroup.getByRole('radio', { name: '11:00 AM' }).check();
  await picker.getByRole('button', { name: 'Continue' }).click();
  await manage.getByRole('dialog', { name: 'Confirm the new time' }).getByRole('button', { name: 'Confirm new time' }).click();
  await manage.getByText('Your booking has been moved.').first().waitFor();
  await main.getByText(/11:00 AM – 11:30 AM/).first().waitFor();
  await journey.shot(manage, 'manage-after-reschedule');

  // The old slot is bookable again at once; the new one is taken.
  const publicIds = async () => (await publicSlots(stack.urls.api)).map((slot) => slot.id);
  expect(await publicIds()).toContain(firstSlot);
  expect(await publicIds()).not.toContain(secondSlot);

  // The updated invitation: same UID, a higher SEQUENCE, the new start (11:00 GMT+8 = 03:00 UTC).
  const moved = await mailFile(parent.email, /^Booking moved/);
  const movedIcs = icsOf(moved)!;
  expect(icsField(movedIcs, 'UID')).toBe(uid);
  expect(Number(icsField(movedIcs, 'SEQUENCE'))).toBeGreaterThan(Number(icsField(confirmationIcs, 'SEQUENCE') ?? 0));
  expect(movedIcs).toMatch(new RegExp(`DTSTART(;TZID=Asia/(Kuala_Lumpur|Singapore))?:${secondDay.replace(/-/g, '')}T(110000|030000Z)`));
  await mailFile(adminEmail, /^Booking moved/);
  // The manage page's download follows the move: the move mail's SEQUENCE and times, so a calendar keeps one event.
  await manage.getByRole('link', { name: 'Download .ics file' }).waitFor();
  expect(sameEvent(await offeredIcs(manage))).toEqual(sameEvent(movedIcs));

  // Cancel: the refund that applies is said before the parent confirms.
  await manage.getByRole('button', { name: 'Cancel booking' }).click();
  const confirmCancel = manage.getByRole('dialog', { name: 'Cancel this booking?' });
  await confirmCancel.getByText('You will get a full refund of RM 75.').waitFor();
  // The dialog names the visit and what was paid; its buttons are not covered by the toast of the move (issue 24).
  await confirmCancel.getByText(parent.school).waitFor();
  await confirmCancel.getByText('RM 75', { exact: true }).first().waitFor();
  await confirmCancel.getByRole('button', { name: 'Cancel booking' }).click({ trial: true, timeout: 2_000 });
  await confirmCancel.getByRole('button', { name: 'Cancel booking' }).click();
  await main.getByText('This booking has been cancelled.').first().waitFor();
  await manage.reload();
  await main.getByText('Refund of RM 75: refunded').waitFor({ timeout: 30_000 });
  // Not a dead end: what was cancelled, and the way on.
  await main.getByRole('region', { name: 'What was cancelled' }).getByText(parent.school).waitFor();
  const bookAnother = main.getByRole('link', { name: 'Book another time' });
  await journey.finish(manage);
  await bookAnother.click();
  await manage.getByRole('heading', { name: 'Book an assessment visit' }).waitFor();

  // The cancellation mails: the parent's invitation withdrawn (METHOD:CANCEL, same UID) with the refund named.
  const cancelled = await mailFile(parent.email, /^Booking cancelled/);
  const cancelledIcs = icsOf(cancelled)!;
  expect(icsField(cancelledIcs, 'METHOD')).toBe('CANCEL');
  expect(icsField(cancelledIcs, 'UID')).toBe(uid);
  expect(Number(icsField(cancelledIcs, 'SEQUENCE'))).toBeGreaterThan(Number(icsField(movedIcs, 'SEQUENCE')));
  expect(cancelled.text).toContain('RM 75');
  expect(cancelled.text).toMatch(/You are welcome to choose another time on the booking page: https?:\/\/\S+/);
  await mailFile(adminEmail, /^Booking cancelled/);

  // Staff see the history and the refund.
  const reference = /PAY-[0-9A-F]{16}/.exec(confirmation.text ?? '')?.[0];
  const staffView = await apiCall<{ state: string; refund: { state: string; amountSen: number }; history: { kind: string }[] }>(
    stack.urls.api,
    'GET',
    `/staff/bookings/${reference}`,
    undefined,
    token,
  );
  expect(staffView.body.data).toMatchObject({ state: 'cancelled', refund: { state: 'refunded', amountSen: 7500 } });
  expect(staffView.body.data.history.map((event) => event.kind)).toEqual(expect.arrayContaining(['booked', 'rescheduled', 'cancelled', 'refunded']));

  // Both slots are back on the parents' timetable.
  const home = await browser.context.newPage();
  await home.setViewportSize(phone);
  await home.goto(`${stack.urls.shell}/`);
  await (await showSlotDay(home, firstDay, '10:00')).waitFor();
  await (await showSlotDay(home, secondDay, '11:00')).waitFor();
  expect(await publicIds()).toEqual(expect.arrayContaining([firstSlot, secondSlot]));
});

test('journey manage: a wrong link shows only the message, no booking', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${stack.urls.shell}/booking/manage/${'x'.repeat(43)}`);
  await page.getByText('This link is not valid. Please use the link in your latest booking email.').waitFor();
  expect(await page.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
  expect(await page.getByText(parent.email).count()).toBe(0);
});
