jest.setTimeout(60_000);
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { DOCUMENT_KINDS, manageBookingPath, type DocumentKind } from 'shared-api/contract';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { documentFiles, documentMarks } from '../../src/documents';
import { payments } from '../../src/payments/tables';
import { paymentForToken } from '../../src/manage/service';
import { runReminders } from '../../src/manage/reminders';
import { freshPglite } from '../helpers';
import { atMY, bookedVisit, dayAhead, MAIL_FROM, remindersFor, SITE } from './support';

// Issue 40: the day-before reminder lists, per child, the documents still to upload or bring, with the upload link
// (the manage link), or says all is in. Every clock is injected; the visits are days ahead of the real clock.
const options = (now: Date) => ({ now, publicSiteUrl: SITE, mailFrom: MAIL_FROM });

let database: DatabaseHandle;
beforeAll(async () => {
  database = await freshPglite();
});
afterAll(() => database?.close());

let nextDay = 20;
/** A booked visit at 10:30 GMT+8 on a day of its own, and the reminder's moment (09:00 the day before). */
async function visit(locale: 'en' | 'ms' = 'en') {
  const day = dayAhead((nextDay += 3));
  const { payment } = await bookedVisit(database.db, atMY(day, '10:30'), { bookedAt: atMY(day, '12:00', -5), visitorName: 'Nur Aisyah' });
  await database.db.update(payments).set({ locale, childName: 'Adam Firdaus', childYear: 'Form 1' }).where(eq(payments.id, payment.id));
  return { payment, nine: atMY(day, '09:00', -1) };
}

const upload = (paymentId: string, kind: DocumentKind) =>
  database.db.insert(documentFiles).values({
    id: randomUUID(),
    paymentId,
    childPosition: 1,
    kind,
    objectKey: randomUUID(),
    contentType: 'image/jpeg',
    sizeBytes: 1000,
    sha256: 'a'.repeat(64),
    originalName: `${kind}.jpg`,
    uploadedBy: 'parent',
  });

/** The one reminder queued for the payment, and the manage link it carries (a link that opens that booking). */
async function reminderOf(paymentId: string) {
  const [mail] = await remindersFor(database.db, paymentId);
  const link = new RegExp(`${SITE}${manageBookingPath('')}([A-Za-z0-9_-]+)`).exec(mail.textBody)!;
  expect((await paymentForToken(database.db, link[1]))?.id).toBe(paymentId);
  return { mail, url: link[0] };
}

it('lists what is still missing, with the upload link, and not what is uploaded or seen on paper', async () => {
  const { payment, nine } = await visit();
  await upload(payment.id, 'birthCertificate');
  await database.db.insert(documentMarks).values({ paymentId: payment.id, childPosition: 1, kind: 'guardianId', mark: 'seenOnPaper', markedBy: 'staff@x.y' });
  // A removed upload is missing again.
  await upload(payment.id, 'immunisation');
  await database.db.update(documentFiles).set({ removedAt: new Date() }).where(eq(documentFiles.kind, 'immunisation'));
  expect(await runReminders(database.db, options(nine))).toBe(1);
  const { mail, url } = await reminderOf(payment.id);
  expect(mail.textBody).toContain(
    `Documents still to upload or bring:\n- Immunization records\n- Previous academic records\nUpload them on your booking page before the visit, or bring the papers: ${url}`,
  );
  expect(mail.textBody).not.toContain("Student's birth certificate");
  expect(mail.textBody).not.toContain('Parent/guardian ID');
  expect(mail.htmlBody).toContain('<h2 style="font-size:16px;margin:16px 0 8px;">Documents still to upload or bring</h2>\n<ul><li>Immunization records</li><li>Previous academic records</li></ul>');
  expect(mail.htmlBody).toContain(`<p><a href="${url}">Upload them on your booking page</a> before the visit, or bring the papers.</p>`);
});

it('says all is in when every document the school asks for is uploaded', async () => {
  const { payment, nine } = await visit();
  for (const kind of DOCUMENT_KINDS) await upload(payment.id, kind);
  expect(await runReminders(database.db, options(nine))).toBe(1);
  const { mail } = await reminderOf(payment.id);
  expect(mail.textBody).toContain('The school has all the documents it asked for. Thank you.');
  expect(mail.textBody).not.toContain('Documents still to upload or bring');
  expect(mail.textBody).not.toContain('What to bring');
});

it('in Malay: the missing list in the parent language', async () => {
  const { payment, nine } = await visit('ms');
  await upload(payment.id, 'guardianId');
  expect(await runReminders(database.db, options(nine))).toBe(1);
  const { mail, url } = await reminderOf(payment.id);
  expect(mail.textBody).toContain(
    `Dokumen yang belum dimuat naik atau perlu dibawa:\n- Sijil kelahiran pelajar\n- Rekod imunisasi\n- Rekod akademik terdahulu\nMuat naiknya di halaman tempahan anda sebelum lawatan, atau bawa salinan kertas: ${url}`,
  );
});
