import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import brandConfig from '../../../brand.config.json';
import { createDocumentStore, type DocumentStore, type DocumentsConfig } from '../../src/documents';
import { documentFiles, documentMarks } from '../../src/documents/tables';
import { payments } from '../../src/payments/tables';
import { findPerson } from '../../src/privacy/person';
import { applyRetention } from '../../src/privacy/retention';
import { auth, staffToken, startTestApp, stopTestApp, type TestContext } from '../helpers';
import { startS3Server, tempFolderStore } from './s3-server';
import { fileRows, paidBooking, pdf, photoWithGps, upload } from './support';

// Issue 40: the retention job deletes an anonymised booking's files from the store, then their rows (and removed files
// a change could not delete); a store that fails keeps the row for the next run. The PDPA export lists the files.
jest.setTimeout(60_000);

/** Eight months on: a cancelled booking (6 months) is due, a paid one (7 years) is kept. */
const later = () => new Date(Date.now() + 240 * 86_400_000);

describe.each([
  ['folder store', tempFolderStore],
  ['S3 store (s3rver)', startS3Server],
] as [string, () => Promise<{ config: DocumentsConfig; stop: () => Promise<void> }>][])('retention and the PDPA export on the %s', (_name, startStore) => {
  let ctx: TestContext;
  let store: DocumentStore;
  let stopStore: () => Promise<void>;

  beforeAll(async () => {
    const started = await startStore();
    stopStore = started.stop;
    store = createDocumentStore(started.config);
    ctx = await startTestApp({ documents: started.config });
  });
  afterAll(async () => {
    await stopTestApp(ctx);
    await stopStore();
  });

  it('deletes the files of a booking it anonymises from the store and the database, keeps a kept booking\'s, and lists them in the export before', async () => {
    const gone = await paidBooking(ctx.database);
    const kept = await paidBooking(ctx.database);
    await upload(ctx, gone.token, 1, 'birthCertificate', await photoWithGps(), 'cert.jpg');
    await upload(ctx, gone.token, 1, 'immunisation', pdf(), 'vaccines.pdf');
    await upload(ctx, kept.token, 1, 'guardianId', pdf(), 'ic.pdf');
    const staff = await staffToken(ctx);
    await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${gone.reference}/documents/1/guardianId/mark`, headers: auth(staff), payload: { mark: 'seenOnPaper' } });
    // A file the parent removed whose object a failed delete left behind.
    const leftKey = randomBytes(32).toString('hex');
    await store.put(leftKey, pdf(), 'application/pdf');
    await ctx.database.db.insert(documentFiles).values({ id: crypto.randomUUID(), paymentId: kept.paymentId, childPosition: 1, kind: 'academicRecords', objectKey: leftKey, contentType: 'application/pdf', sizeBytes: 10, sha256: 'x', originalName: 'old.pdf', uploadedBy: 'parent', removedAt: new Date() });

    // The PDPA export (access request) lists each live file with its payment: child, document, name, type, size, time.
    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.id, gone.paymentId));
    const found = await findPerson(ctx.database.db, { email: payment.visitorEmail });
    expect(found.payments[0].documents).toEqual([
      { child: 1, kind: 'birthCertificate', name: 'cert.jpg', type: 'image/jpeg', sizeBytes: expect.any(Number), sha256: expect.any(String), uploadedAt: expect.any(String) },
      { child: 1, kind: 'immunisation', name: 'vaccines.pdf', type: 'application/pdf', sizeBytes: pdf().length, sha256: expect.any(String), uploadedAt: expect.any(String) },
    ]);

    const goneKeys = (await fileRows(ctx.database)).filter((r) => r.paymentId === gone.paymentId).map((r) => r.objectKey);
    const keptKey = (await fileRows(ctx.database)).find((r) => r.paymentId === kept.paymentId && r.removedAt === null)!.objectKey;
    await ctx.database.db.update(payments).set({ bookingStatus: 'cancelled' }).where(eq(payments.id, gone.paymentId));

    const counts = await applyRetention(ctx.database.db, later(), brandConfig.retention, store);
    expect(counts).toMatchObject({ payments: 1, documentFiles: 3 });
    for (const key of [...goneKeys, leftKey]) expect(await store.get(key)).toBeUndefined();
    expect((await store.get(keptKey))?.equals(pdf())).toBe(true);
    expect((await fileRows(ctx.database)).map((r) => [r.paymentId, r.kind])).toEqual([[kept.paymentId, 'guardianId']]);
    expect(await ctx.database.db.select().from(documentMarks).where(eq(documentMarks.paymentId, gone.paymentId))).toEqual([]);
    // Nothing left to do a second time.
    expect((await applyRetention(ctx.database.db, later(), brandConfig.retention, store)).documentFiles).toBe(0);
  });

  it('a store that fails to delete keeps the row, and the next run deletes it', async () => {
    const b = await paidBooking(ctx.database);
    await upload(ctx, b.token, 1, 'guardianId', pdf(), 'ic.pdf');
    const [row] = (await fileRows(ctx.database)).filter((r) => r.paymentId === b.paymentId);
    await ctx.database.db.update(payments).set({ bookingStatus: 'cancelled' }).where(eq(payments.id, b.paymentId));
    const failing: DocumentStore = { ...store, delete: async () => Promise.reject(new Error('store unavailable')) };
    expect((await applyRetention(ctx.database.db, later(), brandConfig.retention, failing)).documentFiles).toBe(0);
    expect((await fileRows(ctx.database)).map((r) => r.id)).toContain(row.id);
    expect(await store.get(row.objectKey)).toBeDefined();
    expect((await applyRetention(ctx.database.db, later(), brandConfig.retention, store)).documentFiles).toBe(1);
    expect((await fileRows(ctx.database)).map((r) => r.id)).not.toContain(row.id);
    expect(await store.get(row.objectKey)).toBeUndefined();
  });
});
