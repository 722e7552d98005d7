// Issue 14's journey: a parent switches the page to Bahasa Melayu, books and pays; the timetable, the dialog, the
// result page and the confirmation .eml (mail to files, the default) are in Malay, and a reload keeps the language.
// Expected words are written here, not computed by the product's own formatters.
import type { ParsedMail } from 'mailparser';
import { brand } from 'shared-api/contract';
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, eventually, nextWeekdays, startJourney } from '../support/journey';
import { emlFiles, mailTo } from '../support/mail';
import { gatewayPage, onGateway, parent } from '../support/parent';
import type { Stack } from '../support/product';
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
  await details.getByLabel('Nama Anak').fill(parent.child);
  // The year in Malay ("Tingkatan 2"); its value stays the English key.
  await details.getByLabel('Tahun atau Tingkatan Dipohon').selectOption({ label: 'Tingkatan 2' });
  // The privacy notice in Malay, one tap away, and the consent in Malay (issue 28).
  await details.getByRole('button', { name: 'Baca notis privasi' }).click();
  await details.getByRole('region', { name: 'Notis privasi' }).getByText('Siapa yang mengumpul data anda').waitFor();
  await details.getByRole('checkbox', { name: /Saya ibu bapa atau penjaga dan bersetuju/ }).check();
  await details.getByRole('button', { name: 'Teruskan ke Bayaran' }).click();
  const summary = page.getByRole('dialog', { name: 'Ringkasan Bayaran' });
  await summary.waitFor();
  await summary.getByText(malayDate(day), { exact: false }).first().waitFor();
  await summary.getByText(`RM${school.feeSen / 100}`, { exact: false }).first().waitFor();
  // The refund and change terms in Malay, with Malay day and month names (not the lazy chunk's own English ones).
  const terms = await summary.getByRole('region', { name: 'Perubahan dan bayaran balik' }).innerText();
  expect(terms).toMatch(/perubahan boleh dibuat sehingga (Isnin|Selasa|Rabu|Khamis|Jumaat), \d+ \S+ \d{4}, \d+:\d\d (pagi|tengah hari|petang|malam)/);
  expect(terms).not.toMatch(/Monday|Tuesday|Wednesday|Thursday|Friday|Sunday|Saturday|AM|PM/);
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
  expect(confirmation.text).toContain(`Anak: ${parent.child}\nTahun atau tingkatan dipohon: Tingkatan 2`);

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

test('the staff side is English whatever the parent chose; back on the timetable the Malay returns', async () => {
  await browser.context.addCookies([{ name: 'lang', value: 'ms', url: stack.urls.shell }]);
  const page = await browser.context.newPage();
  const htmlLang = () => page.evaluate(() => document.documentElement.lang);
  await page.goto(`${stack.urls.shell}/`);
  await page.getByRole('heading', { name: 'Tempah lawatan penilaian' }).waitFor({ timeout: 30_000 });
  expect(await htmlLang()).toBe('ms');

  // The header's Login link (desktop): the staff page and its frame in English, no language to choose.
  await page.getByRole('link', { name: 'Log masuk' }).click();
  await page.getByRole('heading', { name: 'Staff login' }).waitFor();
  await eventually(async () => (await htmlLang()) === 'en', '<html lang="en"> on /login');
  await page.getByRole('link', { name: `${brand.logoText}, ${brand.productName} home` }).waitFor();
  expect(await page.getByRole('combobox', { name: 'Bahasa' }).count()).toBe(0);

  // Back: the parent's language again.
  await page.goBack();
  await page.getByRole('heading', { name: 'Tempah lawatan penilaian' }).waitFor();
  await eventually(async () => (await htmlLang()) === 'ms', '<html lang="ms"> back on /');

  // A staff page opened directly is English from its first byte.
  const cookie = (await browser.context.cookies(stack.urls.shell)).map((c) => `${c.name}=${c.value}`).join('; ');
  expect(await (await fetch(`${stack.urls.shell}/secured/dashboard`, { headers: { cookie } })).text()).toContain('<html lang="en">');
  await page.goto(`${stack.urls.shell}/login`);
  await page.getByRole('heading', { name: 'Staff login' }).waitFor();
  expect(await htmlLang()).toBe('en');
  await page.getByRole('link', { name: `${brand.logoText}, ${brand.productName} home` }).waitFor();
});
