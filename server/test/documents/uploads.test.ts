import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { DocumentsErrorCode, DocumentsMessage, ErrorCode, ManageErrorCode, ManageMessage, type DocumentsView } from 'shared-api/contract';
import { auditLog } from '../../src/audit/table';
import { createDocumentStore, documentChecklistFor, missingDocumentsFor, type DocumentStore, type DocumentsConfig } from '../../src/documents';
import { UPLOADS_PER_LINK } from '../../src/documents/service';
import { auth, staffToken, startTestApp, stopTestApp, type TestContext } from '../helpers';
import { unknownToken } from '../limits/token-fixtures';
import { startS3Server, tempFolderStore } from './s3-server';
import { fileRows, paidBooking, pdf, photoWithGps, png, upload, visitStarted } from './support';

// Issue 40: the parent's uploads through the manage link and what staff get of them, on both stores: the folder and a
// real S3-compatible server (s3rver). Every refused upload stores nothing: no row, no object.
jest.setTimeout(120_000);

const MB = 1024 * 1024;
const stores: [string, () => Promise<{ config: DocumentsConfig; stop: () => Promise<void> }>][] = [
  ['folder store', tempFolderStore],
  ['S3 store (s3rver)', startS3Server],
];

/** A JPEG's bytes with a PNG's IHDR claiming `width`×`height` (a decompression bomb's header). */
function pngClaiming(width: number, height: number, base: Buffer): Buffer {
  const out = Buffer.from(base);
  // IHDR's data starts at 16: width, height (big-endian), then its CRC over type + data at 29.
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(zlib.crc32(out.subarray(12, 29)), 29);
  return out;
}

describe.each(stores)('documents on the %s', (_name, startStore) => {
  let ctx: TestContext;
  let store: DocumentStore;
  let stopStore: () => Promise<void>;
  let staff: string;

  beforeAll(async () => {
    const started = await startStore();
    stopStore = started.stop;
    store = createDocumentStore(started.config);
    ctx = await startTestApp({ documents: started.config });
    staff = await staffToken(ctx);
  });
  afterAll(async () => {
    await stopTestApp(ctx);
    await stopStore();
  });

  const view = (res: { json: () => { data: DocumentsView } }) => res.json().data;
  const item = (v: DocumentsView, position: number, kind: string) => v.children.find((c) => c.position === position)!.items.find((i) => i.kind === kind)!;

  /** The stored objects of live rows, and that no refused upload left one behind. */
  async function expectNothingStored(before: Awaited<ReturnType<typeof fileRows>>) {
    expect(await fileRows(ctx.database)).toEqual(before);
  }

  it('a photo with GPS is stored re-encoded without any metadata, a PDF as it came; the checklist lists both with name, size and time', async () => {
    const b = await paidBooking(ctx.database);
    const photo = await photoWithGps();
    expect((await sharp(photo).metadata()).exif).toBeDefined();

    const first = await upload(ctx, b.token, 1, 'birthCertificate', photo, 'IMG_2041.jpeg');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const afterPhoto = view(first);
    const cert = item(afterPhoto, 1, 'birthCertificate');
    expect(cert).toEqual({ kind: 'birthCertificate', state: 'uploaded', staffMark: null, file: { id: expect.any(String), name: 'IMG_2041.jpg', type: 'image/jpeg', sizeBytes: expect.any(Number), uploadedAt: expect.any(String) } });
    expect(item(afterPhoto, 1, 'guardianId').state).toBe('toBring');
    const [row] = await fileRows(ctx.database);
    const stored = (await store.get(row.objectKey))!;
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([320, 200]);
    expect(row.sizeBytes).toBe(stored.length);
    expect(row.sha256).toBe(createHash('sha256').update(stored).digest('hex'));
    // The object's name says nothing about whose it is.
    expect(row.objectKey).toMatch(/^[a-f0-9]{64}$/);

    const doc = pdf();
    const second = await upload(ctx, b.token, 1, 'immunisation', doc, 'Vaccines 2019.pdf');
    expect(second.statusCode).toBe(200);
    expect(item(view(second), 1, 'immunisation').file).toMatchObject({ name: 'Vaccines 2019.pdf', type: 'application/pdf', sizeBytes: doc.length });
    const pdfRow = (await fileRows(ctx.database)).find((r) => r.kind === 'immunisation')!;
    expect((await store.get(pdfRow.objectKey))!.equals(doc)).toBe(true);

    // The same view on a plain GET, and the staff's checklist: 2 of 4 in.
    const got = await ctx.app.inject({ method: 'GET', url: `/api/booking/manage/${b.token}/documents` });
    expect(view(got)).toEqual(view(second));
    expect(view(got)).toMatchObject({ editable: true, limits: { maxFileBytes: 10 * MB, maxBookingBytes: 40 * MB }, registrationForm: { doneAt: null } });
    expect((await documentChecklistFor(ctx.database.db, [b.reference, 'NO-SUCH-REF'])).get(b.reference)).toEqual({
      children: [{ position: 1, name: 'Child 1', required: 4, inCount: 2, missing: ['guardianId', 'academicRecords'] }],
    });
  });

  it('replacing a document keeps only the new file (the old object is deleted); removing one deletes it', async () => {
    const b = await paidBooking(ctx.database);
    await upload(ctx, b.token, 1, 'guardianId', pdf('% one\n'), 'ic-front.pdf');
    const [old] = (await fileRows(ctx.database)).filter((r) => r.paymentId === b.paymentId);
    const replaced = await upload(ctx, b.token, 1, 'guardianId', await png(), 'ic.png');
    expect(replaced.statusCode).toBe(200);
    expect(item(view(replaced), 1, 'guardianId').file).toMatchObject({ name: 'ic.png', type: 'image/png' });
    const rows = (await fileRows(ctx.database)).filter((r) => r.paymentId === b.paymentId);
    expect(rows.map((r) => r.contentType)).toEqual(['image/png']);
    expect(await store.get(old.objectKey)).toBeUndefined();

    const removed = await ctx.app.inject({ method: 'DELETE', url: `/api/booking/manage/${b.token}/documents/1/guardianId` });
    expect(removed.statusCode).toBe(200);
    expect(item(view(removed), 1, 'guardianId')).toMatchObject({ state: 'toBring', file: null });
    expect((await fileRows(ctx.database)).filter((r) => r.paymentId === b.paymentId)).toEqual([]);
    expect(await store.get(rows[0].objectKey)).toBeUndefined();
  });

  it('refuses every bad file with a clear message and stores nothing', async () => {
    const b = await paidBooking(ctx.database);
    const before = await fileRows(ctx.database);
    const photo = await photoWithGps();
    const cases: [string, Buffer, string, number, string, string][] = [
      ['an executable renamed .pdf', Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), Buffer.alloc(4096, 7)]), 'scan.pdf', 400, DocumentsErrorCode.FILE_TYPE_NOT_ALLOWED, DocumentsMessage.typeNotAllowed],
      ['an SVG with a script', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>'), 'photo.jpg', 400, DocumentsErrorCode.FILE_TYPE_NOT_ALLOWED, DocumentsMessage.typeNotAllowed],
      ['a GIF', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).gif().toBuffer(), 'a.gif', 400, DocumentsErrorCode.FILE_TYPE_NOT_ALLOWED, DocumentsMessage.typeNotAllowed],
      ['a WebP', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).webp().toBuffer(), 'a.jpg', 400, DocumentsErrorCode.FILE_TYPE_NOT_ALLOWED, DocumentsMessage.typeNotAllowed],
      ['a truncated JPEG', photo.subarray(0, Math.floor(photo.length * 0.6)), 'cut.jpg', 400, DocumentsErrorCode.FILE_UNREADABLE, DocumentsMessage.unreadable],
      ['a PDF cut short (no %%EOF)', pdf().subarray(0, 60), 'cut.pdf', 400, DocumentsErrorCode.FILE_UNREADABLE, DocumentsMessage.unreadable],
      ['a 50 MB file', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(50 * MB, 0x20), Buffer.from('%%EOF\n')]), 'big.pdf', 413, DocumentsErrorCode.FILE_TOO_LARGE, DocumentsMessage.tooLarge],
      ['a PNG claiming 100 megapixels (a decompression bomb)', pngClaiming(10_000, 10_000, await png()), 'bomb.png', 413, DocumentsErrorCode.FILE_TOO_LARGE, DocumentsMessage.tooManyPixels],
    ];
    for (const [what, bytes, name, status, code, message] of cases) {
      const res = await upload(ctx, b.token, 1, 'academicRecords', bytes, name, '10.71.0.1');
      expect([what, res.statusCode, res.json()]).toEqual([what, status, { success: false, data: null, message, error: code }]);
    }
    await expectNothingStored(before);
    // No request body, or another content type: the file is missing, nothing else happens.
    const json = await ctx.app.inject({ method: 'PUT', url: `/api/booking/manage/${b.token}/documents/1/academicRecords`, payload: { file: 'x' }, remoteAddress: '10.71.0.1' });
    expect([json.statusCode, json.json().error]).toEqual([400, DocumentsErrorCode.FILE_MISSING]);
    await expectNothingStored(before);
  });

  it('a zip-bomb-like PDF (a tiny FlateDecode stream inflating to 64 MB) is accepted as a PDF and stored untouched: never inflated, served only as an attachment', async () => {
    const b = await paidBooking(ctx.database);
    const stream = zlib.deflateSync(Buffer.alloc(64 * MB));
    const bomb = Buffer.concat([Buffer.from(`%PDF-1.5\n3 0 obj << /Length ${stream.length} /Filter /FlateDecode >> stream\n`), stream, Buffer.from('\nendstream endobj\ntrailer << >>\n%%EOF\n')]);
    expect(bomb.length).toBeLessThan(200_000);
    const res = await upload(ctx, b.token, 1, 'academicRecords', bomb, 'records.pdf');
    expect(res.statusCode).toBe(200);
    const row = (await fileRows(ctx.database)).find((r) => r.paymentId === b.paymentId)!;
    expect((await store.get(row.objectKey))!.equals(bomb)).toBe(true);
    const download = await ctx.app.inject({ method: 'GET', url: `/staff/documents/${row.id}/download`, headers: auth(staff) });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="records.pdf"; filename*=UTF-8''records.pdf`);
    expect(download.rawPayload.equals(bomb)).toBe(true);
  });

  it('keeps a booking within 40 MB (a replacement counts only the new file)', async () => {
    const b = await paidBooking(ctx.database, { children: 2 });
    const nineMb = (fill: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(9 * MB, fill), Buffer.from('\n%%EOF\n')]);
    for (const [position, kind] of [[1, 'guardianId'], [1, 'birthCertificate'], [2, 'guardianId'], [2, 'birthCertificate']] as const)
      expect((await upload(ctx, b.token, position, kind, nineMb(0x41), 'a.pdf', '10.72.0.1')).statusCode).toBe(200);
    const before = await fileRows(ctx.database);
    const over = await upload(ctx, b.token, 2, 'immunisation', nineMb(0x42), 'b.pdf', '10.72.0.1');
    expect([over.statusCode, over.json().error, over.json().message]).toEqual([413, DocumentsErrorCode.BOOKING_FILES_TOO_LARGE, DocumentsMessage.bookingTooLarge]);
    await expectNothingStored(before);
    // Replacing one 9 MB file with another stays at 36 MB.
    expect((await upload(ctx, b.token, 2, 'guardianId', nineMb(0x43), 'c.pdf', '10.72.0.1')).statusCode).toBe(200);
  });

  it('a stranger without the manage link gets 404 and no data, and nothing is stored; a malformed place or kind is a 400', async () => {
    const before = await fileRows(ctx.database);
    const stranger = await upload(ctx, unknownToken(), 1, 'guardianId', pdf(), 'a.pdf', '10.73.0.1');
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ success: false, data: null, message: ManageMessage.invalidLink, error: ManageErrorCode.MANAGE_LINK_INVALID });
    const look = await ctx.app.inject({ method: 'GET', url: `/api/booking/manage/${unknownToken()}/documents`, remoteAddress: '10.73.0.1' });
    expect(look.json()).toEqual({ success: false, data: null, message: ManageMessage.invalidLink, error: ManageErrorCode.MANAGE_LINK_INVALID });
    await expectNothingStored(before);
    const b = await paidBooking(ctx.database);
    expect((await upload(ctx, b.token, 2, 'guardianId', pdf(), 'a.pdf')).json().error).toBe(DocumentsErrorCode.DOCUMENT_NOT_FOUND);
    expect((await upload(ctx, b.token, 1, 'passport', pdf(), 'a.pdf')).statusCode).toBe(400);
    await expectNothingStored(before);
  });

  it('100 uploads in a minute from one link: past 20 each is refused with 429 and Retry-After, and stores nothing', async () => {
    const b = await paidBooking(ctx.database);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 100; i++) {
      last = await upload(ctx, b.token, 1, 'guardianId', pdf(`% ${i}\n`), 'a.pdf', `10.74.0.${i}`);
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, UPLOADS_PER_LINK).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(UPLOADS_PER_LINK).every((s) => s === 429)).toBe(true);
    expect(last!.json()).toEqual({ success: false, data: null, message: DocumentsMessage.tooManyUploads, error: ErrorCode.RATE_LIMITED });
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    // The 20th upload's file is the one kept: one live row, one object.
    const rows = (await fileRows(ctx.database)).filter((r) => r.paymentId === b.paymentId);
    expect(rows).toHaveLength(1);
    expect((await store.get(rows[0].objectKey))!.toString()).toContain(`% ${UPLOADS_PER_LINK - 1}\n`);
  });

  it('closes at the visit\'s start (409 DOCUMENTS_CLOSED), and on a cancelled booking, keeping what was uploaded', async () => {
    const b = await paidBooking(ctx.database);
    await upload(ctx, b.token, 1, 'guardianId', pdf(), 'a.pdf');
    await visitStarted(ctx.database, b.slotId);
    const before = await fileRows(ctx.database);
    const late = await upload(ctx, b.token, 1, 'birthCertificate', pdf(), 'b.pdf');
    expect([late.statusCode, late.json().error, late.json().message]).toEqual([409, DocumentsErrorCode.DOCUMENTS_CLOSED, DocumentsMessage.closed]);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/booking/manage/${b.token}/documents/1/guardianId` })).statusCode).toBe(409);
    expect((await ctx.app.inject({ method: 'POST', url: `/api/booking/manage/${b.token}/registration-form`, payload: { done: true } })).statusCode).toBe(409);
    await expectNothingStored(before);
    const seen = view(await ctx.app.inject({ method: 'GET', url: `/api/booking/manage/${b.token}/documents` }));
    expect(seen.editable).toBe(false);
    expect(item(seen, 1, 'guardianId').state).toBe('uploaded');
  });

  it('the parent ticks the registration form done, and can untick it', async () => {
    const b = await paidBooking(ctx.database);
    const done = await ctx.app.inject({ method: 'POST', url: `/api/booking/manage/${b.token}/registration-form`, payload: { done: true } });
    expect(done.statusCode).toBe(200);
    expect(view(done).registrationForm).toEqual({ url: 'https://forms.seriilmu.edu.my/registration', doneAt: expect.any(String) });
    const undone = await ctx.app.inject({ method: 'POST', url: `/api/booking/manage/${b.token}/registration-form`, payload: { done: false } });
    expect(view(undone).registrationForm.doneAt).toBeNull();
  });

  it('staff see who uploaded, download the file as a sandboxed attachment (audited as a view), and mark documents (audited)', async () => {
    const b = await paidBooking(ctx.database, { children: 2 });
    await upload(ctx, b.token, 2, 'birthCertificate', await photoWithGps(), 'Siti <birth> cert.jpg');
    const list = await ctx.app.inject({ method: 'GET', url: `/staff/bookings/${b.reference}/documents`, headers: auth(staff) });
    expect(list.statusCode).toBe(200);
    const file = list.json().data.children[1].items[1].file;
    expect(file).toMatchObject({ name: 'Siti _birth_ cert.jpg', uploadedBy: 'parent' });
    expect((await ctx.app.inject({ method: 'GET', url: `/staff/bookings/${b.reference}/documents` })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: `/staff/documents/${file.id}/download` })).statusCode).toBe(401);

    const download = await ctx.app.inject({ method: 'GET', url: `/staff/documents/${file.id}/download`, headers: auth(staff), remoteAddress: '10.75.0.9' });
    expect(download.statusCode).toBe(200);
    expect(download.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'content-disposition': `attachment; filename="Siti _birth_ cert.jpg"; filename*=UTF-8''Siti%20_birth_%20cert.jpg`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
    });
    expect((await sharp(download.rawPayload).metadata()).exif).toBeUndefined();
    const [audit] = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'document_downloaded'), eq(auditLog.target, b.reference)));
    expect(audit).toMatchObject({ actor: 'staff@example.com', target: b.reference, ip: '10.75.0.9', detail: { file: file.id, child: 2, kind: 'birthCertificate' } });

    const mark = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${b.reference}/documents/1/guardianId/mark`, headers: auth(staff), payload: { mark: 'seenOnPaper' } });
    expect(mark.statusCode).toBe(200);
    expect(mark.json().data.children[0].items[0]).toMatchObject({ kind: 'guardianId', state: 'toBring', staffMark: 'seenOnPaper', markedBy: 'staff@example.com' });
    const marked = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'document_marked'));
    expect(marked.map((a) => [a.target, a.detail])).toEqual([[b.reference, { child: 1, kind: 'guardianId', mark: 'seenOnPaper' }]]);
    // Seen on paper counts as in; the parent's view shows the mark, never who made it.
    expect((await documentChecklistFor(ctx.database.db, [b.reference])).get(b.reference)!.children.map((c) => [c.position, c.inCount, c.missing])).toEqual([
      [1, 1, ['birthCertificate', 'immunisation', 'academicRecords']],
      [2, 1, ['guardianId', 'immunisation', 'academicRecords']],
    ]);
    expect(await missingDocumentsFor(ctx.database.db, b.reference)).toEqual([
      { position: 1, name: 'Child 1', missing: ['birthCertificate', 'immunisation', 'academicRecords'] },
      { position: 2, name: 'Child 2', missing: ['guardianId', 'immunisation', 'academicRecords'] },
    ]);
    const parent = view(await ctx.app.inject({ method: 'GET', url: `/api/booking/manage/${b.token}/documents` }));
    expect(parent.children[0].items[0]).toEqual({ kind: 'guardianId', state: 'toBring', file: null, staffMark: 'seenOnPaper' });
    expect(JSON.stringify(parent)).not.toContain('staff@example.com');
    const cleared = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${b.reference}/documents/1/guardianId/mark`, headers: auth(staff), payload: { mark: null } });
    expect(cleared.json().data.children[0].items[0].staffMark).toBeNull();
    // A removed file is gone for staff too.
    await ctx.app.inject({ method: 'DELETE', url: `/api/booking/manage/${b.token}/documents/2/birthCertificate` });
    expect((await ctx.app.inject({ method: 'GET', url: `/staff/documents/${file.id}/download`, headers: auth(staff) })).statusCode).toBe(404);
  });
});
