// Issue 28's journey: a parent books in Bahasa Melayu and reads the Malay privacy notice before consenting; staff then
// find that parent on /secured/privacy and export their data in one click, and the file holds the booking, the
// payment, the consent (the notice version shown, in Malay) and the mails. Expected words are written here.
import fs from 'node:fs';
import type { ParsedMail } from 'mailparser';
import { brand, formatRM } from 'shared-api/contract';
import { currentNoticeVersion } from 'shared-api/privacy';
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, demoLoginFrom, eventually, nextWeekdays, startJourney, passSecondFactor } from '../support/journey';
import { emlFiles, mailTo } from '../support/mail';
import { gatewayPage, onGateway } from '../support/parent';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;

productSuite({ staff: true }, (s) => ({ stack, browser, token } = s));

const malayWeekdays = ['Ahad', 'Isnin', 'Selasa', 'Rabu', 'Khamis', 'Jumaat', 'Sabtu'];
const malayMonths = ['Januari', 'Februari', 'Mac', 'April', 'Mei', 'Jun', 'Julai', 'Ogos', 'September', 'Oktober', 'November', 'Disember'];
const malayDate = (date: string) => {
  const [year, month, day] = date.split('-').map(Number);
  return `${malayWeekdays[new Date(Date.UTC(year, month - 1, day)).getUTCDay()]}, ${day} ${malayMonths[month - 1]} ${year}`;
};

// A weekday at least three days ahead; 11:10 keeps clear of the other journeys' times.
const day = nextWeekdays(4)[3];
const school = brand.schools[1];
const schoolInMalay = school.names?.ms ?? school.name;
const PARENT = { name: 'Siti Aminah binti Yusof', email: 'siti.privacy@example.com', phone: '013 222 3344', child: 'Hakim bin Razak' };

test('journey privacy: a parent books in Malay after the Malay notice; staff export their data and find the booking, payment, consent and mails', async () => {
  const journey = startJourney('privacy-export');
  await addSlot(stack.urls.api, token, day, '11:10');

  // The parent, in Bahasa Melayu.
  const page = await browser.context.newPage();
  await page.goto(`${stack.urls.shell}/`);
  await page.getByRole('heading', { name: 'Book an assessment visit' }).waitFor({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Language' }).selectOption('ms');
  await page.getByRole('heading', { name: 'Tempah lawatan penilaian' }).waitFor();
  const main = page.getByRole('main');
  const slot = main.getByRole('button', { name: `11:10 pagi, ${malayDate(day)}`, exact: true });
  for (let week = 0; week < 3 && !(await slot.count()); week++) await main.getByRole('button', { name: /^Minggu (berikutnya|depan) ›$/ }).click();
  await slot.click();
  const details = page.getByRole('dialog', { name: 'Butiran Tempahan' });
  await details.waitFor();
  await details.getByLabel('Nama Pelawat').fill(PARENT.name);
  await details.getByLabel('Alamat E-mel').fill(PARENT.email);
  await details.getByLabel('Nombor Telefon').fill(PARENT.phone);
  const schoolSelect = details.getByLabel('Sekolah Pilihan');
  await schoolSelect.locator('option', { hasText: schoolInMalay }).waitFor({ state: 'attached' });
  await schoolSelect.selectOption({ label: await schoolSelect.locator('option', { hasText: schoolInMalay }).innerText() });
  await details.getByLabel('Nama Anak').fill(PARENT.child);
  await details.getByLabel('Tahun atau Tingkatan Dipohon').selectOption({ label: 'Tingkatan 1' });

  // The notice in Malay first (one tap), with who it is shared with and the version the consent will name.
  await details.getByRole('button', { name: 'Baca notis privasi' }).click();
  const notice = details.getByRole('region', { name: 'Notis privasi' });
  await notice.waitFor();
  expect(await notice.getAttribute('lang')).toBe('ms');
  const text = await notice.innerText();
  for (const words of ['Siapa yang mengumpul data anda', 'gerbang pembayaran', 'penyedia e-mel', '21 hari', 'Data anak anda', `Versi ${currentNoticeVersion()}`]) expect(text).toContain(words);
  expect(text).not.toContain('Who collects your data');
  // English one tap away.
  await details.getByRole('button', { name: 'Baca dalam English' }).click();
  await details.getByRole('region', { name: 'Privacy notice' }).getByText('Who collects your data').waitFor();
  await journey.shot(page, 'privacy-notice-english-from-malay');
  await details.getByRole('checkbox', { name: /Saya ibu bapa atau penjaga dan bersetuju/ }).check();
  await details.getByRole('button', { name: 'Teruskan ke Bayaran' }).click();
  const summary = page.getByRole('dialog', { name: 'Ringkasan Bayaran' });
  await summary.waitFor();
  await summary.getByRole('button', { name: 'Buat Bayaran' }).click();
  await gatewayPage(page);
  await onGateway(page, 'pay');
  await page.getByRole('heading', { name: 'Bayaran berjaya!' }).waitFor({ timeout: 45_000 });
  await eventually<ParsedMail>(
    async () => (await emlFiles(`${stack.dataDir}/mail`)).find((mail) => mailTo(PARENT.email)(mail) && /^Tempahan disahkan/.test(mail.subject ?? '')),
    'the Malay confirmation .eml',
  );

  // Staff find the parent and export everything held about them.
  const login = demoLoginFrom(stack.logs);
  const staff = await browser.context.newPage();
  await staff.goto(`${stack.urls.shell}/login`);
  await staff.getByLabel('Email').fill(login.email);
  await staff.getByLabel('Password').fill(login.password);
  await staff.getByRole('button', { name: 'Login' }).click();
  await staff.waitForURL('**/secured/dashboard');
  await staff.getByRole('link', { name: 'Privacy' }).click();
  await staff.waitForURL('**/secured/privacy');
  // An admin page: the demo admin sets up the second factor at this first admin action (issue 35).
  await passSecondFactor(staff, login.email);
  await staff.getByLabel('Email address or phone number').fill(PARENT.email);
  await staff.getByRole('button', { name: 'Find' }).click();
  const found = staff.getByRole('region', { name: `Held about ${PARENT.email}` });
  await found.waitFor();
  // The person first, readably: the child, the booking and where it stands; the counts after.
  await found.getByText(PARENT.child).first().waitFor();
  await found.getByText('Paid', { exact: true }).first().waitFor();
  const counts = await found.getByRole('list', { name: 'Records held' }).getByRole('listitem').allInnerTexts();
  expect(counts.slice(0, 3)).toEqual(['Bookings (slots): 1', 'Payments: 1', 'Consents: 1']);
  // The parent's readable copy: a page in plain words (GMT+8, ringgit), no database columns.
  const [readable] = await Promise.all([staff.waitForEvent('download'), found.getByRole('button', { name: 'Download for the parent (readable)' }).click()]);
  expect(readable.suggestedFilename()).toBe(`person-${PARENT.email}.html`);
  const copy = fs.readFileSync((await readable.path())!, 'utf8');
  expect(copy).toContain(PARENT.child);
  expect(copy).toContain(formatRM(school.feeSen));
  expect(copy).not.toContain('amount_sen');
  const [download] = await Promise.all([staff.waitForEvent('download'), found.getByRole('button', { name: 'Download full record (JSON)' }).click()]);
  expect(download.suggestedFilename()).toBe(`person-${PARENT.email}.json`);
  const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
  await journey.shot(staff, 'privacy-person-found');

  expect(exported.person).toEqual({ email: PARENT.email, phone: null });
  expect(exported.bookings).toHaveLength(1);
  expect(exported.bookings[0]).toMatchObject({ status: 'booked', visitorName: PARENT.name, visitorEmail: PARENT.email, childName: PARENT.child, selectedSchool: school.name });
  expect(exported.payments).toHaveLength(1);
  const [payment] = exported.payments;
  expect(payment).toMatchObject({ status: 'completed', locale: 'ms', visitorEmail: PARENT.email, reference: exported.bookings[0].bookingReference, amountSen: school.feeSen });
  expect(payment).not.toHaveProperty('holdToken');
  expect(exported.consents).toEqual([expect.objectContaining({ id: payment.consentId, noticeVersion: currentNoticeVersion(), language: 'ms', channel: 'web' })]);
  expect(exported.bookings[0].consentId).toBe(payment.consentId);
  const mails = exported.mails as { kind: string; recipient: string; subject: string; locale: string | null }[];
  expect(mails).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'visitor_confirmation', recipient: PARENT.email, locale: 'ms', subject: expect.stringMatching(/^Tempahan disahkan/) })]));
  // Staff's look-up is in the audit trail, and names the parent.
  const audit = exported.auditEntries as { action: string }[];
  expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['privacy_person_viewed']));
  await journey.finish(staff);
});
