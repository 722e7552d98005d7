import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { mintManageToken } from '../../src/bookings/tokens';
import { documentFiles } from '../../src/documents/tables';
import { paymentChildren, payments } from '../../src/payments/tables';
import { slots } from '../../src/slots/tables';
import type { TestContext } from '../helpers';
import { insertConsent, insertSlot } from '../helpers';

let n = 0;

export type Paid = { paymentId: string; reference: string; slotId: number; token: string };

/** A paid, booked visit `hoursAhead` from now, with its manage token (as a paid checkout writes it); `children` > 1: a booking of several. */
export async function paidBooking(database: DatabaseHandle, { hoursAhead = 0, children = 1, school = 'Seri Ilmu Private Primary' } = {}): Promise<Paid> {
  const { db } = database;
  n += 1;
  // Each booking at its own time (a slot's start and seat are unique).
  hoursAhead ||= 72 + n;
  const reference = `PAY-DOCS-${n}-${randomBytes(4).toString('hex')}`;
  const paymentId = `pay_${randomBytes(16).toString('hex')}`;
  const visitor = { visitorName: 'Nur Aina', visitorEmail: `docs${n}@example.com`, visitorContactNo: '0123456789', selectedSchool: school };
  const seats = [];
  for (let i = 1; i <= children; i++) {
    const slot = await insertSlot(database, hoursAhead, { seat: i });
    await db.update(slots).set({ status: 'booked', bookingReference: reference, ...visitor, childName: `Child ${i}`, childYear: 'Year 2', consentId: await insertConsent(db) }).where(eq(slots.id, slot.id));
    seats.push(slot);
  }
  await db.insert(payments).values({
    id: paymentId,
    reference,
    slotId: seats[0].id,
    status: 'completed',
    amountSen: 5000 * children,
    ...visitor,
    childName: 'Child 1',
    childYear: 'Year 2',
    holdToken: randomBytes(16).toString('hex'),
    gateway: 'sandbox',
    sessionExpiresAt: new Date(Date.now() + 3_600_000),
    completedAt: new Date(),
    paidAmountSen: 5000 * children,
    bookingStatus: 'booked',
    consentId: await insertConsent(db),
  });
  if (children > 1)
    await db.insert(paymentChildren).values(
      seats.map((s, i) => ({ paymentId, position: i + 1, slotId: s.id, childName: `Child ${i + 1}`, childYear: 'Year 2', selectedSchool: school, feeSen: 5000, discountSen: 0, amountSen: 5000 })),
    );
  return { paymentId, reference, slotId: seats[0].id, token: await mintManageToken(db, paymentId, 'mail') };
}

/** A multipart/form-data body with one file in the field `file`, as a browser's FormData sends it. */
export async function multipartBody(bytes: Buffer, fileName: string, type = 'application/octet-stream', field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), fileName);
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), headers: { 'content-type': response.headers.get('content-type')! } };
}

/** PUT a file as the parent's manage page does. */
export async function upload(ctx: TestContext, token: string, position: number, kind: string, bytes: Buffer, fileName: string, address = '10.70.0.1') {
  const body = await multipartBody(bytes, fileName);
  return ctx.app.inject({ method: 'PUT', url: `/api/booking/manage/${token}/documents/${position}/${kind}`, ...body, remoteAddress: address });
}

/** Every document row (live and removed), for "nothing changed" checks. */
export const fileRows = (database: DatabaseHandle) => database.db.select().from(documentFiles).orderBy(documentFiles.uploadedAt);

/** Moves a booking's visit so it started `minutesAgo` minutes ago (and ends later). */
export const visitStarted = (database: DatabaseHandle, slotId: number, minutesAgo = 5) =>
  database.db
    .update(slots)
    .set({ startAt: sql`now() - make_interval(mins => ${minutesAgo})`, endAt: sql`now() + interval '1 hour'` })
    .where(eq(slots.id, slotId));

// ---- Files ----

/** A camera photo: a JPEG with EXIF (camera, orientation) and GPS position. */
export const photoWithGps = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '3/1 8/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '101/1 41/1 0/1' },
    })
    .toBuffer();

export const png = () => sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 1 } } }).png().toBuffer();

/** A small, valid PDF. */
export const pdf = (extra = '') =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n${extra}trailer << /Root 1 0 R >>\n%%EOF\n`,
  );
