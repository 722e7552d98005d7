// Issue 37's journey: a parent books two children (one Secondary, one Primary) into one 3-seat time and pays the sum
// once on the sandbox gateway; the timetable then says "1 place left"; the staff see both children; the parent cancels
// one child from the manage link and gets that child's share back; the time says "2 places left". Shots on a 390 px
// phone and a 1366 px desk, in English and Bahasa Melayu.
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser';
import { apiCall, eventually, nextWeekdays, showCarouselDay, slotButtonName, startJourney } from '../support/journey';
import { emlFiles, mailTo } from '../support/mail';
import { gatewayPage, onGateway, parent } from '../support/parent';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;
// Four weekdays ahead: inside the full-refund window's far side (more than 48 hours), before the cut-off.
const day = nextWeekdays(5)[3];
const phone = { width: 390, height: 844 };
const desk = { width: 1366, height: 900 };
const brother = { name: 'Adam Firdaus', school: 'Seri Ilmu Private Secondary', year: 'Form 1' };
const sister = { name: 'Siti Hajar', school: 'Seri Ilmu Private Primary', year: 'Year 1' };

productSuite({ staff: true }, (s) => ({ stack, browser, token } = s));

async function newPage(viewport: { width: number; height: number }, lang: 'en' | 'ms' = 'en'): Promise<Page> {
  await browser.context.addCookies([{ name: 'lang', value: lang, url: stack.urls.shell }]);
  const page = await browser.context.newPage();
  await page.setViewportSize(viewport);
  await page.goto(`${stack.urls.shell}/`);
  return page;
}

/** The time's button on the phone's carousel, named with its places left. */
async function timeOnPhone(page: Page, places: string) {
  await page.getByText('Loading available slots...').waitFor({ state: 'detached', timeout: 30_000 });
  await showCarouselDay(page, day);
  const button = page.getByRole('main').getByRole('button', { name: `${slotButtonName(day, '10:00')}, ${places}`, exact: true });
  await button.waitFor({ timeout: 30_000 });
  return button;
}

const mailFile = (address: string, subject: RegExp): Promise<ParsedMail> =>
  eventually(async () => (await emlFiles(`${stack.dataDir}/mail`)).find((mail) => mailTo(address)(mail) && subject.test(mail.subject ?? '')), `mail to ${address}: ${subject}`);

test('two children in one checkout: paid once, "1 place left", staff see both, one cancelled with their share back, "2 places left"', async () => {
  const journey = startJourney('siblings');
  const added = await apiCall<unknown>(stack.urls.api, 'POST', '/slot/add', { date: day, startTime: '10:00', endTime: '10:30', seats: 3 }, token);
  expect(added.status).toBe(201);

  const page = await newPage(phone);
  await (await timeOnPhone(page, '3 places left')).click();
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
  await journey.shot(page, 'en-siblings-details-390');
  await dialog.getByRole('button', { name: 'Continue to Payment' }).click();

  // The summary: each child with their fee, 10 % off the second child's own, and the total.
  const summary = page.getByRole('dialog', { name: 'Payment Summary' });
  await summary.getByText(/RM 50\s−\sRM 5\s\(Sibling discount\)\s=\sRM 45/).waitFor();
  await summary.getByText('RM 120', { exact: true }).waitFor();
  await journey.shot(page, 'en-siblings-summary-390');
  await summary.getByRole('button', { name: 'Proceed to Payment' }).click();
  await gatewayPage(page);
  await page.getByText('RM 120').first().waitFor();
  await onGateway(page, 'pay');
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 45_000 });
  await page.getByLabel('Children').getByText(/Siti Hajar, Year 1, Seri Ilmu Private Primary: RM 50 less RM 5 sibling discount = RM 45/).waitFor();
  await journey.shot(page, 'en-siblings-receipt-390');

  // One place left on the timetable, in both languages and sizes.
  for (const [viewport, lang, name, words] of [
    [phone, 'en', 'en-siblings-one-left-390', '1 place left'],
    [desk, 'ms', 'ms-siblings-one-left-1366', '1 tempat lagi'],
  ] as const) {
    const home = await newPage(viewport, lang);
    await home.getByRole('main').getByRole('button', { name: new RegExp(`, ${words}$`) }).first().waitFor({ timeout: 30_000 });
    await journey.shot(home, name);
    await home.close();
  }

  // The staff see one booking with both children.
  const confirmation = await mailFile(parent.email, /^Booking confirmed/);
  expect(confirmation.text).toContain(brother.name);
  expect(confirmation.text).toContain(sister.name);
  const reference = /PAY-[0-9A-F]{16}/.exec(confirmation.text ?? '')?.[0];
  const staffView = await apiCall<{ children: { childName: string; selectedSchool: string }[] }>(stack.urls.api, 'GET', `/staff/bookings/${reference}`, undefined, token);
  expect(staffView.body.data.children.map((c) => [c.childName, c.selectedSchool])).toEqual([
    [brother.name, brother.school],
    [sister.name, sister.school],
  ]);

  // The parent cancels the sister only, from the mailed link: her share comes back, the brother stays booked.
  const link = /https?:\/\/\S+\/booking\/manage\/[A-Za-z0-9_-]{43}/.exec(confirmation.text ?? '')?.[0];
  const manage = await newPage(desk);
  await manage.goto(link!);
  await manage.getByRole('region', { name: 'Children' }).getByText(sister.name).waitFor();
  await journey.shot(manage, 'en-siblings-manage-1366');
  await manage.getByRole('button', { name: `Cancel ${sister.name} only` }).click();
  const confirm = manage.getByRole('dialog', { name: `Cancel ${sister.name}'s visit?` });
  await confirm.getByText('You will get a full refund of RM 45.').waitFor();
  // The dialog's opening animation done: the shot shows it as the parent reads it.
  await confirm.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  await journey.shot(manage, 'en-siblings-cancel-one-1366');
  await confirm.getByRole('button', { name: `Cancel ${sister.name}` }).click();
  await manage.getByText(`${sister.name}'s visit has been cancelled.`).first().waitFor();
  await eventually(async () => {
    const view = await apiCall<{ state: string; children: { childName: string; cancelled: boolean; refundSen: number | null }[] }>(stack.urls.api, 'GET', `/staff/bookings/${reference}`, undefined, token);
    const [kept, gone] = view.body.data.children;
    return view.body.data.state === 'booked' && !kept.cancelled && gone.cancelled && gone.refundSen === 4500;
  }, 'the sister cancelled with RM 45 back, the brother booked');
  await mailFile(parent.email, new RegExp(`^${sister.name}'s visit is cancelled`));
  await manage.reload();
  await manage.getByRole('region', { name: 'Children' }).getByText('Cancelled').waitFor();
  await manage.setViewportSize(phone);
  await journey.shot(manage, 'en-siblings-manage-after-390');

  // Her seat is free again: two places left.
  const after = await newPage(phone, 'ms');
  await after.getByRole('main').getByRole('button', { name: /, 2 tempat lagi$/ }).first().waitFor({ timeout: 30_000 });
  await journey.shot(after, 'ms-siblings-two-left-390');
  const again = await newPage(phone);
  await timeOnPhone(again, '2 places left');

  // In Bahasa Melayu at a desk: the question and the second child's fields.
  const desked = await newPage(desk, 'ms');
  await desked.getByRole('main').getByRole('button', { name: /, 2 tempat lagi$/ }).first().click();
  const borang = desked.getByRole('dialog');
  await borang.getByLabel('Berapa orang anak yang anda tempah?').selectOption('2');
  await borang.getByRole('group', { name: 'Anak 2' }).waitFor();
  await borang.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  await journey.shot(desked, 'ms-siblings-details-1366');
  await journey.finish(again);
});
