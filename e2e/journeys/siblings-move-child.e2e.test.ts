// Issue 37: staff move ONE child of a booking of two to another time. A parent books two children into a 3-seat time
// on the sandbox gateway; staff move the sister alone to 11:00; Appointment Details then lists her with her own time
// beside "Move this child" and "Cancel this child". Shots on a 1366 px desk and a 390 px phone.
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser';
import { apiCall, demoLoginFrom, eventually, nextWeekdays, showCarouselDay, slotButtonName, staffSlots, startJourney } from '../support/journey';
import { emlFiles, mailTo } from '../support/mail';
import { gatewayPage, onGateway, parent } from '../support/parent';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;
const day = nextWeekdays(5)[3];
const phone = { width: 390, height: 844 };
const desk = { width: 1366, height: 900 };
const brother = { name: 'Adam Firdaus', school: 'Seri Ilmu Private Secondary', year: 'Form 1' };
const sister = { name: 'Siti Hajar', school: 'Seri Ilmu Private Primary', year: 'Year 1' };

productSuite({ staff: true }, (s) => ({ stack, browser, token } = s));

const mailFile = (address: string, subject: RegExp): Promise<ParsedMail> =>
  eventually(async () => (await emlFiles(`${stack.dataDir}/mail`)).find((mail) => mailTo(address)(mail) && subject.test(mail.subject ?? '')), `mail to ${address}: ${subject}`);

async function bookTwoChildren(page: Page) {
  await page.getByText('Loading available slots...').waitFor({ state: 'detached', timeout: 30_000 });
  await showCarouselDay(page, day);
  await page.getByRole('main').getByRole('button', { name: `${slotButtonName(day, '10:00')}, 3 places left`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Booking Details' });
  await dialog.getByLabel('How many children are you booking for?').selectOption('2');
  await dialog.getByLabel('Visitor Name').fill(parent.name);
  await dialog.getByLabel('Email Address').fill(parent.email);
  await dialog.getByLabel('Contact Number').fill(parent.phone);
  await dialog.getByLabel('Selected School').first().selectOption(brother.school);
  await dialog.getByLabel("Child's Name").first().fill(brother.name);
  await dialog.getByLabel('Year or Grade Applied For').first().selectOption(brother.year);
  const second = dialog.getByRole('group', { name: 'Child 2' });
  await second.getByLabel("Child's Name").fill(sister.name);
  await second.getByLabel('Selected School').selectOption(sister.school);
  await second.getByLabel('Year or Grade Applied For').selectOption(sister.year);
  await dialog.getByRole('checkbox', { name: /parent or guardian|ibu bapa atau penjaga/ }).check();
  await dialog.getByRole('button', { name: 'Continue to Payment' }).click();
  await page.getByRole('dialog', { name: 'Payment Summary' }).getByRole('button', { name: 'Proceed to Payment' }).click();
  await gatewayPage(page);
  await onGateway(page, 'pay');
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 45_000 });
}

test('staff move one child alone; Appointment Details gives her own time', async () => {
  const journey = startJourney('siblings-move-child');
  expect((await apiCall<unknown>(stack.urls.api, 'POST', '/slot/add', { date: day, startTime: '10:00', endTime: '10:30', seats: 3 }, token)).status).toBe(201);
  expect((await apiCall<unknown>(stack.urls.api, 'POST', '/slot/add', { date: day, startTime: '11:00', endTime: '11:30', seats: 2 }, token)).status).toBe(201);

  await browser.context.addCookies([{ name: 'lang', value: 'en', url: stack.urls.shell }]);
  const page = await browser.context.newPage();
  await page.setViewportSize(phone);
  await page.goto(`${stack.urls.shell}/`);
  await bookTwoChildren(page);

  const confirmation = await mailFile(parent.email, /^Booking confirmed/);
  const reference = /PAY-[0-9A-F]{16}/.exec(confirmation.text ?? '')![0];
  const slots = await staffSlots(stack.urls.api, token);
  const eleven = slots.find((s) => s.date.startsWith(day) && s.startTime.startsWith('11:00'))!;
  const moved = await apiCall<{ children: { childName: string; time?: { startTime: string } }[] }>(stack.urls.api, 'POST', `/staff/bookings/${reference}/move`, { slotId: eleven.id, child: 2 }, token);
  expect(moved.status).toBe(200);
  expect(moved.body.data.children[1].time?.startTime).toBe('11:00');
  await mailFile(parent.email, new RegExp(`^${sister.name}'s visit is moved`));

  // Staff open the booking from its first seat at 10:00.
  const booked = (await staffSlots(stack.urls.api, token)).filter((s) => s.isBooked && s.date.startsWith(day) && s.startTime.startsWith('10:00')).sort((a, b) => a.id - b.id)[0];
  const login = demoLoginFrom(stack.logs);
  const staff = await browser.context.newPage();
  await staff.setViewportSize(desk);
  await staff.goto(`${stack.urls.shell}/login`);
  await staff.getByLabel('Email').fill(login.email);
  await staff.getByLabel('Password').fill(login.password);
  await staff.getByRole('button', { name: 'Login' }).click();
  await staff.waitForURL('**/secured/dashboard');
  await staff.getByRole('group', { name: 'Filter slots' }).getByRole('button', { name: 'Booked' }).click();
  await staff.getByRole('button', { name: `View Details of slot #${booked.id}` }).click();
  const details = staff.getByRole('dialog', { name: 'Appointment Details' });
  await details.getByText(/Siti Hajar, Year 1, Seri Ilmu Private Primary: RM 45 · at .*11:00 AM – 11:30 AM/).waitFor();
  await details.getByRole('button', { name: `Move this child: ${sister.name}` }).waitFor();
  await details.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  await journey.shot(staff, 'en-siblings-move-child-1366');
  await staff.setViewportSize(phone);
  await details.getByRole('button', { name: `Move this child: ${sister.name}` }).scrollIntoViewIfNeeded();
  await journey.shot(staff, 'en-siblings-move-child-390');

  // The move step for her alone.
  await details.getByRole('button', { name: `Move this child: ${sister.name}` }).click();
  const step = staff.getByRole('dialog', { name: `Move ${sister.name} to another time` });
  await step.getByText(`Only ${sister.name} moves; the other children stay at their time.`).waitFor();
  await journey.finish(staff, 'en-siblings-move-child-step-390');
});
