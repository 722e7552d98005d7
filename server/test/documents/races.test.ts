import brandConfig from '../../../brand.config.json';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { createDocumentStore, documentChecklistFor, type DocumentStore } from '../../src/documents';
import { payments } from '../../src/payments/tables';
import { applyRetention } from '../../src/privacy/retention';
import { createThrowawayPostgres, startTestApp, stopTestApp, type TestContext } from '../helpers';
import { tempFolderStore } from './s3-server';
import { fileRows, paidBooking, pdf, upload } from './support';

// On PostgreSQL, where requests run at once: uploads of one document take turns on the payment's lock, so one file
// stays and every other object is deleted; the booking's 40 MB holds against uploads at once.
jest.setTimeout(90_000);

describe('documents at once (PostgreSQL)', () => {
  let ctx: TestContext;
  let store: DocumentStore;
  let stopStore: () => Promise<void>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const folder = await tempFolderStore();
    stopStore = folder.stop;
    store = createDocumentStore(folder.config);
    const throwaway = await createThrowawayPostgres('documents_races');
    drop = throwaway.drop;
    const database: DatabaseHandle = await openDatabase({ driver: 'postgres', url: throwaway.url, poolSize: 8 });
    ctx = await startTestApp({ documents: folder.config }, database);
  });
  afterAll(async () => {
    await stopTestApp(ctx);
    await drop?.();
    await stopStore?.();
  });

  it('eight uploads of one document at once: all answered, one file kept, no object left behind', async () => {
    const b = await paidBooking(ctx.database);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(ctx, b.token, 1, 'guardianId', pdf(`% ${i}\n`), `ic-${i}.pdf`, `10.80.0.${i}`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    const rows = (await fileRows(ctx.database)).filter((r) => r.paymentId === b.paymentId);
    expect(rows).toHaveLength(1);
    expect(rows[0].removedAt).toBeNull();
    expect(await store.get(rows[0].objectKey)).toBeDefined();
    expect((await documentChecklistFor(ctx.database.db, [b.reference])).get(b.reference)!.children[0].inCount).toBe(1);
  });

  it('five 9 MB uploads at once for one booking: at most four fit in 40 MB, the refused one stores nothing', async () => {
    const b = await paidBooking(ctx.database, { children: 2 });
    const nineMb = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(9 * 1024 * 1024, 0x41), Buffer.from('\n%%EOF\n')]);
    const places = [[1, 'guardianId'], [1, 'birthCertificate'], [2, 'guardianId'], [2, 'birthCertificate'], [2, 'immunisation']] as const;
    const answers = await Promise.all(places.map(([position, kind], i) => upload(ctx, b.token, position, kind, nineMb, 'a.pdf', `10.81.0.${i}`)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 413]);
    expect((await fileRows(ctx.database)).filter((r) => r.paymentId === b.paymentId)).toHaveLength(4);
  });

  it('retention on PostgreSQL deletes a cancelled booking\'s files', async () => {
    const b = await paidBooking(ctx.database);
    await upload(ctx, b.token, 1, 'academicRecords', pdf(), 'r.pdf');
    const [row] = (await fileRows(ctx.database)).filter((r) => r.paymentId === b.paymentId);
    await ctx.database.db.update(payments).set({ bookingStatus: 'cancelled' }).where(eq(payments.id, b.paymentId));
    const counts = await applyRetention(ctx.database.db, new Date(Date.now() + 240 * 86_400_000), brandConfig.retention, store);
    expect(counts.documentFiles).toBeGreaterThanOrEqual(1);
    expect(await store.get(row.objectKey)).toBeUndefined();
    expect((await fileRows(ctx.database)).filter((r) => r.paymentId === b.paymentId)).toEqual([]);
  });
});
