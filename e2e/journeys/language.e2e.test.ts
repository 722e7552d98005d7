// Issue 14's journey: a parent switches the page to Bahasa Melayu, books and pays; the timetable, the dialog, the
// result page and the confirmation .eml (mail to files, the default) are in Malay, and a reload keeps the language.
// Expected words are written here, not computed by the product's own formatters.
import type { ParsedMail } from 'mailparser';
import { brand } from 'shared-api/contract';
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, eventually, nextWeekdays, startJourney } from '../support/journey';
import { emlFiles, mailTo } from '../support/mail';
import { gatewayPage, onGateway, parent } from '../support/parent';
import type { Stack } from '../support/stack';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;

productSuite({ staff: true }, (s) => ({ stack, browser, token } = s));

const malayWeekdays = ['Ahad', 'Isnin', 'Selasa', 'Rabu', 'Khamis', 'Jumaat', 'Sabtu'];
const malayMonths = ['Januari', 'Februari', 'Mac', 'April', 'Mei', 'Jun', 'Julai', 'Ogos', 'September', 'Oktober', 'November', 'Disember'];
/** "Isnin, 7 Disember 2026" for a YYYY-MM-DD date (the calendar date itself: no time zone involved). */
const malayDate = (date: string) => {
  const [year, month, day] = date.split('-').map(Number);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return `${malayWeekdays[weekday]}, ${day} ${malayMonths[month - 1]} ${year}`;
};

// A weekday at least three days ahead; 10:40 keeps clear of the other journeys' times.
const day = nextWeekdays(4)[3];
const slotName = `10:40 pagi, ${malayDate(day)}`;
const school = brand.schools[1];
const schoolInMalay = school.names?.ms ?? school.name;

test('journey language: switch to Bahasa Melayu, book and pay in Malay, the .eml in Malay, a reload keeps it', async () => {
  const journey = startJourney('parent-books-in-malay');
  await addSlot(stack.urls.api, token, day, '10:40');

  const page = await browser.context.newPage();
  await page.goto(`${stack.urls.shell}/`);
  await page.getByRole('heading', { name: 'Book an assessment visit' }).waitFor({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Language' }).selectOption('ms');

  // The timetable in Malay: heading, note, week names, weekday names and the slot's time and date.
  const main = page.getByRole('main');
  await page.getByRole('heading', { name: 'Tempah lawatan penilaian' }).waitFor();
  await main.getByText('Semua masa adalah dalam GMT+8', { exact: false }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('ms');
  expect(await page.getByRole('heading', { name: 'Book an assessment visit' }).count()).toBe(0);
  const slot = main.getByRole('button', { name: slotName, exact: true });
  for (let week = 0; week < 3 && !(await slot.count()); week++) {
    await main.getByRole('button', { name: /^Minggu (berikutnya|depan) ›$/ }).click();
  }
  await slot.waitFor();
  await expect(main.locator('th').filter({ hasText: 'Isn' }).count()).resolves.toBeGreaterThan(0);

  // The dialog in Malay, the school in its Malay name, the summary with the Malay date and the amount.
  await slot.click();
  const details = page.getByRole('dialog', { name: 'Butiran Tempahan' });
  await details.waitFor();
  await details.getByLabel('Nama Pelawat').fill(parent.name);
  await details.getByLabel('Alamat E-mel').fill(parent.email);
  await details.getByLabel('Nombor Telefon').fill(parent.phone);
  const schoolSelect = details.getByLabel('Sekolah Pilihan');
  await schoolSelect.locator('option', { hasText: schoolInMalay }).waitFor({ state: 'attached' });
  await schoolSelect.selectOption({ label: await schoolSelect.locator('option', { hasText: schoolInMalay }).innerText() });
  await details.getByRole('button', { name: 'Teruskan ke Bayaran' }).click();
  const summary = page.getByRole('dialog', { name: 'Ringkasan Bayaran' });
  await summary.waitFor();
  await summary.getByText(malayDate(day), { exact: false }).first().waitFor();
  await summary.getByText(`RM${school.feeSen / 100}`, { exact: false }).first().waitFor();
  await journey.shot(page, 'malay-payment-summary');
  await summary.getByRole('button', { name: 'Buat Bayaran' }).click();

  // The gateway's hosted page is the gateway's own (English); the result page is ours again, in Malay.
  await gatewayPage(page);
  await onGateway(page, 'pay');
  await page.getByRole('heading', { name: 'Bayaran berjaya!' }).waitFor({ timeout: 45_000 });
  await page.getByText(malayDate(day), { exact: false }).first().waitFor();

  // The confirmation mail in the language the parent booked in.
  const confirmation = await eventually<ParsedMail>(
    async () => (await emlFiles(`${stack.dataDir}/mail`)).find((mail) => mailTo(parent.email)(mail) && /^Tempahan disahkan/.test(mail.subject ?? '')),
    'the Malay confirmation .eml',
  );
  expect(confirmation.subject).toContain(schoolInMalay);
  expect(confirmation.subject).toContain('10:40 pagi');
  expect(String(confirmation.headers.get('content-language'))).toBe('ms');
  expect(confirmation.text).toContain(malayDate(day));

  // A returning parent's page is Malay from its first byte: <html lang="ms"> and the language's chunks preloaded.
  const cookieHeader = (await browser.context.cookies(stack.urls.shell)).map((c) => `${c.name}=${c.value}`).join('; ');
  const html = await (await fetch(`${stack.urls.shell}/`, { headers: { cookie: cookieHeader } })).text();
  expect(html).toContain('<html lang="ms"');
  expect(html).toMatch(/<link rel="preload" href="\/frame-ms\.[0-9a-f]+\.js" as="script">/);
  expect(html).toMatch(/<link rel="preload" href="[^"]+\/home-ms\.[0-9a-f]+\.js" as="script">/);
  const english = await (await fetch(`${stack.urls.shell}/`)).text();
  expect(english).toContain('<html lang="en-MY"');
  expect(english).not.toContain('-ms.');

  // A reload (and a later visit) keeps the language.
  await page.goto(`${stack.urls.shell}/`);
  await page.reload();
  await page.getByRole('heading', { name: 'Tempah lawatan penilaian' }).waitFor({ timeout: 30_000 });
  expect(await page.getByRole('combobox', { name: 'Bahasa' }).inputValue()).toBe('ms');
  await journey.finish(page);
});
