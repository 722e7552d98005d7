// Issue 40's parent journey on a 390 px phone: pay, open the manage link, upload a birth certificate photo carrying GPS
// EXIF and an immunisation PDF, replace the photo; staff then get the photo without its location, the PDF as it came,
// both as attachments, and the day's visit shows 2 of 4 documents in. Then the visit's day: the API runs on a
// throwaway PostgreSQL database, so the test can move two paid visits to a time that has begun today (the only way a
// visit booked ahead is on its day whatever the hour the test runs); staff mark one Arrived and one No-show, and both
// show in the Booked list, the CSV and the audit trail.
import fs from 'node:fs';
import { Client } from 'pg';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { axeViolations, describeViolations } from '../support/axe';
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, apiCall, demoLoginFrom, nextWeekdays, startJourney, todayMY } from '../support/journey';
import { bookToGateway, onGateway, parent } from '../support/parent';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;
const PHONE = { width: 390, height: 844 };
// Days ahead, so the documents are open (until the visit starts) whatever the time of day the test runs.
const day = nextWeekdays(6)[3];

const PG = 'postgres://postgres@127.0.0.1:5432';
const database = `e2e_documents_${process.pid}_${Date.now()}`;
const admin = () => new Client({ connectionString: `${PG}/test` });
// Before the suite's product starts (hooks run in the order they are declared).
beforeAll(async () => {
  const client = admin();
  await client.connect();
  await client.query(`CREATE DATABASE ${database}`);
  await client.end();
});

productSuite({ staff: true, viewport: PHONE, apiEnv: { DATABASE_URL: `${PG}/${database}` } }, (s) => ({ stack, browser, token } = s));

// After the suite's product stopped.
afterAll(async () => {
  const client = admin();
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await client.end();
});

/** A camera photo as a phone takes it: a JPEG whose EXIF carries where it was taken (a GPS IFD: Kuala Lumpur). */
const cameraPhoto = (background: string) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background } })
    .withExif({ IFD0: { Make: 'PhoneCam', Model: 'P1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '3/1 8/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '101/1 41/1 30/1' } })
    .jpeg()
    .toBuffer();

/** Whether an image's EXIF points to a GPS IFD (tag 0x8825, either byte order). */
async function hasLocation(image: Buffer): Promise<boolean> {
  const { exif } = await sharp(image).metadata();
  return Boolean(exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]))));
}

/** A one-page PDF, as a scanner app saves it. */
function onePagePdf(): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>'];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body);
}

/** Taps the document's button and picks the file in the chooser it opens (the phone's camera or files). */
async function pick(page: Page, button: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  const opened = await chooser;
  expect(await opened.element().getAttribute('accept')).toBe('image/jpeg,image/png,application/pdf');
  await opened.setFiles(file);
}

/** The demo staff member signed in on a desk (1366 px), on the dashboard. */
async function staffAtDesk(): Promise<Page> {
  const desk = await browser.context.newPage();
  await desk.setViewportSize({ width: 1366, height: 900 });
  const login = demoLoginFrom(stack.logs);
  await desk.goto(`${stack.urls.shell}/login`);
  await desk.getByLabel('Email').fill(login.email);
  await desk.getByLabel('Password').fill(login.password);
  await desk.getByRole('button', { name: 'Login' }).click();
  await desk.waitForURL('**/secured/dashboard');
  return desk;
}

type StaffFile = { id: string; name: string; type: string; sizeBytes: number };
type StaffView = { children: { position: number; items: { kind: string; state: string; file: StaffFile | null }[] }[] };

test('journey documents: a phone uploads a photo (stored without its location) and a PDF, replaces the photo; staff see 2 of 4 in', async () => {
  const journey = startJourney('parent-uploads-documents');
  await addSlot(stack.urls.api, token, day, '10:00');
  const page = await browser.context.newPage();
  await page.setViewportSize(PHONE);
  await page.goto(`${stack.urls.shell}/`);
  await bookToGateway(page, day, '10:00');
  await onGateway(page, 'pay');
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 45_000 });
  const manageLink = page.getByRole('link', { name: 'Change or cancel this booking' });
  await manageLink.waitFor();
  await page.goto(new URL((await manageLink.getAttribute('href'))!, stack.urls.shell).toString());

  const section = page.getByRole('region', { name: 'Before your visit' });
  await section.getByRole('button', { name: "Upload Student's birth certificate" }).waitFor();
  const row = (name: string) => section.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });

  const photo = await cameraPhoto('#d8cfc0');
  expect(await hasLocation(photo)).toBe(true);
  await pick(page, "Upload Student's birth certificate", { name: 'IMG_20261126_093012.jpg', mimeType: 'image/jpeg', buffer: photo });
  await row("Student's birth certificate").getByText('IMG_20261126_093012.jpg').waitFor();
  await row("Student's birth certificate").getByText('Uploaded', { exact: true }).waitFor();

  const pdf = onePagePdf();
  await pick(page, 'Upload Immunization records', { name: 'klinik-immunisation.pdf', mimeType: 'application/pdf', buffer: pdf });
  await row('Immunization records').getByText('klinik-immunisation.pdf').waitFor();

  // Replace: the second photo takes the first's place.
  await pick(page, "Replace Student's birth certificate", { name: 'birth-cert-retake.jpg', mimeType: 'image/jpeg', buffer: await cameraPhoto('#c9d8c0') });
  await row("Student's birth certificate").getByText('birth-cert-retake.jpg').waitFor();
  expect(await page.getByText('IMG_20261126_093012.jpg').count()).toBe(0);
  await row('Parent/guardian ID').getByText('Bring on the day', { exact: true }).waitFor();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  // The checklist with its files, buttons and notice: nothing axe finds, in the real browser.
  expect(describeViolations(await axeViolations(page))).toEqual([]);

  // Staff: the day's visit says 2 of 4 in.
  const visits = await apiCall<{ visits: { reference: string; children: { checklist: { required: number; inCount: number; missing: string[] } | null }[] }[] }>(
    stack.urls.api,
    'GET',
    `/staff/visits/day?day=${day}`,
    undefined,
    token,
  );
  expect(visits.status).toBe(200);
  expect(visits.body.data.visits).toHaveLength(1);
  const [visit] = visits.body.data.visits;
  expect(visit.children[0].checklist).toEqual({ required: 4, inCount: 2, missing: ['guardianId', 'academicRecords'] });

  // Staff's copies: the retaken photo without its location, the PDF byte for byte, each an attachment.
  const documents = await apiCall<StaffView>(stack.urls.api, 'GET', `/staff/bookings/${visit.reference}/documents`, undefined, token);
  const items = documents.body.data.children[0].items;
  const birth = items.find((i) => i.kind === 'birthCertificate')!;
  const immunisation = items.find((i) => i.kind === 'immunisation')!;
  expect([birth.state, birth.file?.name, immunisation.file?.name]).toEqual(['uploaded', 'birth-cert-retake.jpg', 'klinik-immunisation.pdf']);
  const download = (id: string) => fetch(`${stack.urls.api}/staff/documents/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
  const storedPhoto = await download(birth.file!.id);
  expect(storedPhoto.status).toBe(200);
  expect(storedPhoto.headers.get('content-type')).toBe('image/jpeg');
  expect(storedPhoto.headers.get('content-disposition')).toMatch(/^attachment/);
  expect(storedPhoto.headers.get('x-content-type-options')).toBe('nosniff');
  const photoBytes = Buffer.from(await storedPhoto.arrayBuffer());
  expect((await sharp(photoBytes).metadata()).width).toBe(1600);
  expect(await hasLocation(photoBytes)).toBe(false);
  const storedPdf = await download(immunisation.file!.id);
  expect(storedPdf.headers.get('content-type')).toBe('application/pdf');
  expect(storedPdf.headers.get('content-disposition')).toMatch(/^attachment/);
  expect(Buffer.from(await storedPdf.arrayBuffer()).equals(pdf)).toBe(true);
  await journey.finish(page);

  // The staff's "Visits of the day" on the dashboard (a desk): the visit's day picked, the child's 2 of 4 in.
  const desk = await staffAtDesk();
  // The picker's label of the visit's day: 'Thu 3' (GMT+8; the day is within the seven days the view opens on).
  const [y, m, d] = day.split('-').map(Number);
  const weekday = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-GB', { weekday: 'short', timeZone: 'UTC' });
  await desk.getByRole('group', { name: 'Day' }).getByText(`${weekday} ${d}`, { exact: true }).click();
  const visitItem = desk.getByRole('listitem').filter({ hasText: visit.reference });
  await visitItem.getByText('2 of 4 in', { exact: true }).waitFor();
  // Arrived waits for the visit's own day (days ahead here: the server's clock decides).
  expect(await visitItem.getByRole('button', { name: /arrived/i }).isDisabled()).toBe(true);
});

test("the visit's day: staff mark one visit Arrived and another No-show after its start; both in the Booked list, the CSV and the audit trail", async () => {
  // A second family's visit, paid on the phone like the first.
  await addSlot(stack.urls.api, token, day, '11:00');
  const phonePage = await browser.context.newPage();
  await phonePage.setViewportSize(PHONE);
  await phonePage.goto(`${stack.urls.shell}/`);
  await bookToGateway(phonePage, day, '11:00', { ...parent, name: 'Siti Aminah binti Yusof', email: 'siti.parent@example.com', phone: '013 456 7890', child: 'Hana binti Razak' });
  await onGateway(phonePage, 'pay');
  await phonePage.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 45_000 });
  await phonePage.close();

  // Both visits now begin today (GMT+8) on whole minutes, as slots do: a few minutes ago, never before today's
  // midnight; 10:00's first, then 11:00's a minute later.
  const sql = new Client({ connectionString: `${PG}/${database}` });
  await sql.connect();
  try {
    const midnight = new Date(`${todayMY()}T00:00:00+08:00`).getTime();
    const first = Math.max(Math.floor((Date.now() - 5 * 60_000) / 60_000) * 60_000, midnight);
    for (const [time, start] of [['10:00', first], ['11:00', first + 60_000]] as const) {
      const moved = await sql.query(
        `UPDATE slots SET start_at = $1, end_at = $2 WHERE deleted_at IS NULL AND status = 'booked' AND start_at = ($3 || ' ' || $4 || '+08')::timestamptz`,
        [new Date(start).toISOString(), new Date(start + 30 * 60_000).toISOString(), day, time],
      );
      expect(moved.rowCount).toBe(1);
    }
    // The second visit's start is at most a minute ahead (a test run in the first minutes after midnight): wait for it.
    const wait = first + 60_000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 50));
  } finally {
    await sql.end();
  }

  // Staff at the desk: today's visits, in order; the first family arrived, the second did not come.
  const desk = await staffAtDesk();
  await desk.getByRole('button', { name: `Mark ${parent.child} arrived` }).click();
  await desk.getByText(/^Arrived at .* · marked by /).waitFor();
  await desk.getByRole('button', { name: 'Mark Hana binti Razak no-show' }).click();
  await desk.getByText(/^No-show, marked at .* by /).waitFor();

  // The Booked list shows each visit's attendance, and the CSV of today's bookings carries it.
  await desk.getByRole('button', { name: 'Booked', exact: true }).click();
  const bookedRow = (name: string) => desk.getByRole('row').filter({ hasText: name });
  await bookedRow(parent.name).getByRole('cell', { name: 'Arrived', exact: true }).waitFor();
  await bookedRow('Siti Aminah binti Yusof').getByRole('cell', { name: 'No-show', exact: true }).waitFor();
  const exportSection = desk.getByRole('region', { name: 'Export bookings (CSV)' });
  await exportSection.getByLabel('From', { exact: true }).fill(todayMY());
  await exportSection.getByLabel('To', { exact: true }).fill(todayMY());
  const download = desk.waitForEvent('download');
  await exportSection.getByRole('button', { name: 'Export CSV' }).click();
  const csv = fs.readFileSync((await (await download).path())!, 'utf8');
  const rowOf = (name: string) => csv.split(/\r?\n/).find((line) => line.includes(name)) ?? '';
  expect(csv.split(/\r?\n/)[0]).toMatch(/Attendance/);
  expect(rowOf(parent.child)).toMatch(/Arrived/);
  expect(rowOf('Hana binti Razak')).toMatch(/No-show/);

  // The audit trail names both marks.
  const audit = await apiCall<unknown>(stack.urls.api, 'GET', '/staff/audit', undefined, token);
  expect(audit.status).toBe(200);
  const text = JSON.stringify(audit.body.data);
  expect(text).toContain('"visit_arrived"');
  expect(text).toContain('"visit_no_show"');
});
