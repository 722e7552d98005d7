// Issue 38's journey, on the local fake of WhatsApp's Cloud API that the product runs by default: a parent ticks
// "Also send my confirmation and reminder on WhatsApp", books and pays; the fake receives the confirmation template;
// the reminder job sends the reminder; "Confirm I'm coming" pressed on the fake's page shows "Confirmed by parent" to
// staff; "Cancel" answers with the manage link and cancels nothing; STOP stops every later WhatsApp message (the email
// reminder still goes); a number not on WhatsApp shows staff why, while its email went.
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, apiCall, eventually, nextWeekdays, startJourney } from '../support/journey';
import { emlFiles, mailTo } from '../support/mail';
import { fillDetails, gatewayPage, onGateway, openSlot, parent, type Visitor } from '../support/parent';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

jest.setTimeout(600_000);

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;
// Messages at any hour; reminders looked for every 2 s (when one is due is set per restart below).
const ENV = { WHATSAPP_QUIET_HOURS: 'off', REMINDER_INTERVAL_MS: '2000' };
productSuite({ staff: true, apiEnv: ENV }, (s) => ({ stack, browser, token } = s));

const days = nextWeekdays(8);
const [dayA, dayB, dayC] = [days[3], days[5], days[6]];
const phone = { width: 390, height: 844 };
const family: Visitor = { ...parent, email: 'wa.parent@example.com', phone: '012 345 6789' };
const digits = '60123456789';
const notOnWhatsApp: Visitor = { ...parent, name: 'Lim Mei Ling', email: 'no.whatsapp@example.com', phone: '012 345 0000' };

type FakeMessage = { direction: 'out' | 'in'; wamid?: string; template?: string; language?: string; text?: string; type?: string; body?: unknown };
const conversation = async (to: string): Promise<FakeMessage[]> =>
  (await (await fetch(`${stack.urls.api}/fake-whatsapp/messages.json?to=${to}`)).json()).messages as FakeMessage[];
const sentTo = async (to: string) => (await conversation(to)).filter((m) => m.direction === 'out');
const staffBooking = async (reference: string) =>
  (await apiCall<{ confirmedByParentAt: string | null; bookingStatus?: string; state?: string; messages: { channel: string; kind: string; state: string; reason: string | null }[]; whatsapp: { state: string } }>(stack.urls.api, 'GET', `/staff/bookings/${reference}`, undefined, token)).body.data;
const mails = (address: string, subject: RegExp): Promise<ParsedMail[]> =>
  eventually(async () => {
    const found = (await emlFiles(`${stack.dataDir}/mail`)).filter((mail) => mailTo(address)(mail) && subject.test(mail.subject ?? ''));
    return found.length > 0 && found;
  }, `mail to ${address}: ${subject}`);

/** Books `visitor` at 10:00 on `day` with the WhatsApp box ticked, pays on the sandbox; the booking's reference. */
async function bookWithWhatsApp(page: Page, day: string, visitor: Visitor): Promise<string> {
  await page.goto(`${stack.urls.shell}/`);
  const dialog = await openSlot(page, day, '10:00');
  await fillDetails(dialog, visitor);
  await dialog.getByRole('checkbox', { name: 'Also send my confirmation and reminder on WhatsApp' }).check();
  await dialog.getByRole('button', { name: 'Continue to Payment' }).click();
  await page.getByRole('dialog', { name: 'Payment Summary' }).getByRole('button', { name: 'Proceed to Payment' }).click();
  await gatewayPage(page);
  await onGateway(page, 'pay');
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 45_000 });
  await mails(visitor.email, /^Booking confirmed/);
  // The booking's reference as staff see it (the list's row of this parent on that day).
  const list = await apiCall<{ bookings: { reference: string; visitorEmail: string; start: string }[] }>(stack.urls.api, 'GET', '/staff/bookings', undefined, token);
  const row = list.body.data.bookings.find((b) => b.visitorEmail === visitor.email && new Date(Date.parse(b.start) + 8 * 3_600_000).toISOString().startsWith(day));
  expect(row).toBeDefined();
  return row!.reference;
}

/**
 * Restarts the API with the day-before reminder set so that a visit on `day` is due now (and was not when it was
 * booked): REMINDER_DAYS_BEFORE = days from today to `day`, REMINDER_TIME = this minute in GMT+8 (after the booking's).
 */
async function reminderDueNowFor(day: string) {
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  await new Promise((resolve) => setTimeout(resolve, minute + 61_000 - Date.now()));
  const now = new Date(Date.now() + 8 * 3_600_000);
  const today = now.toISOString().slice(0, 10);
  const daysBefore = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  await stack.killApi();
  await stack.startApi({ ...ENV, REMINDER_DAYS_BEFORE: String(daysBefore), REMINDER_TIME: now.toISOString().slice(11, 16) });
}

async function press(page: Page, button: string) {
  await page.goto(`${stack.urls.api}/fake-whatsapp/?to=${digits}`);
  await page.getByRole('button', { name: button }).last().click();
  await page.waitForLoadState();
}

test('journey whatsapp: opt in, confirmation, reminder, Confirm, Cancel, STOP, and a number not on WhatsApp', async () => {
  const journey = startJourney('whatsapp');
  await addSlot(stack.urls.api, token, dayA, '10:00');
  await addSlot(stack.urls.api, token, dayB, '10:00');
  await addSlot(stack.urls.api, token, dayC, '10:00');
  const page = await browser.context.newPage();
  await page.setViewportSize(phone);

  // The box beside the contact number, then the confirmation template on the fake, in the parent's language.
  const first = await bookWithWhatsApp(page, dayA, family);
  const second = await bookWithWhatsApp(page, dayB, family);
  await eventually(async () => (await sentTo(digits)).length === 2, 'two confirmations on WhatsApp');
  expect((await sentTo(digits)).map((m) => [m.template, m.language])).toEqual([
    ['booking_confirmation_v1', 'en'],
    ['booking_confirmation_v1', 'en'],
  ]);

  // The first visit's reminder comes due: the reminder job sends it with its three buttons.
  await reminderDueNowFor(dayA);
  await eventually(async () => (await sentTo(digits)).some((m) => m.template === 'visit_reminder_v1'), 'the reminder on WhatsApp', 60_000);
  await page.goto(`${stack.urls.api}/fake-whatsapp/?to=${digits}`);
  for (const name of ["Confirm I'm coming", 'Change time', 'Cancel']) await page.getByRole('button', { name }).last().waitFor();
  await journey.shot(page, 'fake-reminder');

  // Confirm I'm coming: staff see "Confirmed by parent".
  await press(page, "Confirm I'm coming");
  await eventually(async () => (await staffBooking(first)).confirmedByParentAt !== null, 'confirmed by parent');
  // Cancel: the answer is the manage link; the booking is still booked.
  await press(page, 'Cancel');
  const answer = await eventually(async () => (await conversation(digits)).find((m) => m.direction === 'out' && /\/booking\/manage\/[A-Za-z0-9_-]{43}/.test(JSON.stringify(m))), 'the manage link on WhatsApp');
  expect(JSON.stringify(answer)).toMatch(/\/booking\/manage\//);
  expect((await staffBooking(first)).messages.some((m) => m.channel === 'whatsapp')).toBe(true);
  const manage = await browser.context.newPage();
  await manage.setViewportSize(phone);
  await manage.goto(/https?:\/\/[^\s"\\]+\/booking\/manage\/[A-Za-z0-9_-]{43}/.exec(JSON.stringify(answer))![0]);
  await manage.getByText('Booked and paid').waitFor();
  await journey.shot(manage, 'manage-whatsapp-on');

  // STOP: the answer says so; the second visit's reminder comes by email only.
  await page.goto(`${stack.urls.api}/fake-whatsapp/?to=${digits}`);
  await page.getByLabel('Reply as the parent').fill('STOP');
  await page.getByRole('button', { name: 'Send' }).click();
  await eventually(async () => (await staffBooking(second)).whatsapp.state === 'withdrawn', 'STOP recorded on the second booking');
  await reminderDueNowFor(dayB);
  await eventually(async () => (await mails(family.email, /^Reminder:/)).length >= 2, 'both email reminders');
  expect((await sentTo(digits)).filter((m) => m.template === 'visit_reminder_v1')).toHaveLength(0);
  await manage.reload();
  await manage.getByText('WhatsApp messages are off for this booking. Emails still come.').waitFor();

  // A number not on WhatsApp: staff see why the message did not arrive; the email went.
  const third = await bookWithWhatsApp(page, dayC, notOnWhatsApp);
  const failed = await eventually(async () => (await staffBooking(third)).messages.find((m) => m.channel === 'whatsapp' && m.state === 'failed'), 'the failed WhatsApp message');
  expect(failed.reason).toMatch(/131026/);
  expect((await staffBooking(third)).messages.some((m) => m.channel === 'email' && m.state === 'sent')).toBe(true);
});
