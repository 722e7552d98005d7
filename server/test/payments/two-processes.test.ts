jest.setTimeout(180_000);
import type { ChildProcess } from 'node:child_process';
import { eq, sql } from 'drizzle-orm';
import { PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { mailOutbox } from '../../src/mail/tables';
import { payments } from '../../src/payments/tables';
import { bookSlotRow as bookSlot } from '../../src/checkout/hold-rows';
import { startFakeChip } from './fake-chip';
import { json, removeProcessDirs, startApiProcess, stopAll, type Server } from './server-process';
import { throwawayPostgres, waitFor } from './support';
import { currentConsent, insertConsent } from '../helpers';

// Two real API processes (server/src/main.ts) on one PostgreSQL database, paying through one (fake) CHIP.
const SECRET = 'chip-two-processes-key';
const BRAND = '99999999-2222-3333-4444-555555555555';
const STATUS_WINDOW_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let chip: Awaited<ReturnType<typeof startFakeChip>>;
let database: DatabaseHandle;
let drop: () => Promise<void>;
const children: ChildProcess[] = [];
let a: Server;
let b: Server;

async function startApi(url: string): Promise<Server> {
  const server = await startApiProcess('payments-two', {
    DATABASE_URL: url,
    PAYMENT_GATEWAY: 'chip',
    CHIP_API_URL: chip.apiUrl,
    CHIP_BRAND_ID: BRAND,
    CHIP_SECRET_KEY: SECRET,
    CHIP_PUBLIC_KEY: chip.publicPem,
    SEED_DEMO: 'true',
    // Both reconcilers run a pass every second, racing the polls for the same payments.
    RECONCILE_INTERVAL_MS: '1000',
  });
  children.push(server.child);
  return server;
}

beforeAll(async () => {
  chip = await startFakeChip({ secretKey: SECRET, brandId: BRAND });
  const pgdb = await throwawayPostgres('payments_two');
  drop = pgdb.drop;
  // One after the other: the first migrates and seeds the slots.
  a = await startApi(pgdb.url);
  b = await startApi(pgdb.url);
  database = await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 2 });
});
afterAll(async () => {
  await stopAll(children);
  await database?.close();
  await drop?.();
  await chip?.close();
  removeProcessDirs();
});

const slots: { id: number; date: string; startTime: string }[] = [];
async function initiate(email: string, phone: string) {
  if (slots.length === 0) slots.push(...(await json(await fetch(`${a.base}/public/list?limit=100&page=1`))).data.slots);
  const slot = slots.shift()!;
  const body = {
    slotId: slot.id,
    visitorName: 'Two Process Parent',
    visitorEmail: email,
    visitorContactNo: phone,
    selectedSchool: 'Seri Ilmu International',
    childName: 'Two Process Child',
    childYear: 'Year 7',
    fee: 10000,
    slotDate: slot.date,
    slotStartTime: slot.startTime,
    consent: currentConsent(),
  };
  const res = await json(await fetch(`${a.base}/api/payment/initiate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const [payment] = await database.db.select().from(payments).where(eq(payments.id, res.data.paymentSession.id));
  return { slotId: slot.id, payment };
}

it('50 browsers polling one pending payment on two processes: CHIP is asked at most once per 5 s; a lost callback still finishes it', async () => {
  const { payment } = await initiate('poller@example.com', '0123456701');
  const purchase = payment.gatewaySessionId!;
  const statusCalls = () => chip.requests.filter((r) => r.method === 'GET' && r.path === `/purchases/${purchase}/`);
  const started = Date.now();
  const answers: number[] = [];
  const browsers = Array.from({ length: 50 }, async (_, i) => {
    const base = i % 2 ? b.base : a.base;
    await sleep(i * 20);
    // Ten polls a second apart each (counted, not timed: a busy machine only makes the run longer).
    for (let poll = 0; poll < 10; poll++) {
      answers.push((await fetch(`${base}/api/payment/status/${payment.id}`)).status);
      await sleep(1_000);
    }
  });
  // The parent pays at CHIP after 6 s; its callback is lost.
  const payer = sleep(6_000).then(() => chip.pay(purchase, { sendCallback: false }));
  await Promise.all([...browsers, payer]);

  expect(answers).toHaveLength(50 * 10);
  expect(answers.every((s) => s === 200)).toBe(true);
  const calls = statusCalls().map((r) => r.at);
  const elapsed = Date.now() - started;
  expect(calls.length).toBeGreaterThanOrEqual(2);
  expect(calls.length).toBeLessThanOrEqual(1 + Math.floor(elapsed / STATUS_WINDOW_MS));
  // The window is kept on the database's clock; arrival at CHIP may shift a little with each call's latency.
  for (let i = 1; i < calls.length; i++) expect(calls[i] - calls[i - 1]).toBeGreaterThan(STATUS_WINDOW_MS - 500);

  const done = await waitFor(async () => {
    const body = await json(await fetch(`${b.base}/api/payment/status/${payment.id}`));
    return body.data.payment.status === 'completed' ? body : undefined;
  }, 15_000, 250);
  expect(done.data.booking.confirmed).toBe(true);
  // Finished: polls answer from the database.
  const finishedCalls = statusCalls().length;
  await Promise.all(Array.from({ length: 20 }, (_, i) => fetch(`${(i % 2 ? a : b).base}/api/payment/status/${payment.id}`)));
  expect(statusCalls().length).toBe(finishedCalls);
});

it('a late payer heard of by both processes at once is refunded once, told by mail, and the admin too', async () => {
  const { slotId, payment } = await initiate('late-two@example.com', '0123456702');
  const purchase = payment.gatewaySessionId!;
  // The hold ran out and another family booked the slot; then the money arrived.
  await database.db.execute(sql`UPDATE slots SET hold_expires_at = now() - interval '1 minute' WHERE id = ${slotId}`);
  const other = await bookSlot(database.db, {
    consentId: await insertConsent(database.db),
    slotId,
    visitor: {
      visitorName: 'Other Family',
      visitorEmail: 'other@example.com',
      visitorContactNo: '0129999999',
      selectedSchool: 'Seri Ilmu International',
      childName: 'Other Child',
      childYear: 'Year 7',
    },
  });
  expect(other.ok).toBe(true);
  await chip.pay(purchase, { sendCallback: false });
  const body = JSON.stringify(chip.purchases.get(purchase));
  const headers = { 'content-type': 'application/json', 'x-signature': chip.signBody(body) };
  // CHIP's callback (and its retry) reaching both processes at once, while browsers poll both.
  const results = await Promise.all([
    ...[a, b, a, b].map((s) => fetch(`${s.base}/api/payment/callback`, { method: 'POST', headers, body })),
    ...[a, b, a, b].map((s) => fetch(`${s.base}/api/payment/status/${payment.id}`)),
  ]);
  expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);

  // The paying browser (with the payment's key) is told of the refund and its mail.
  const refunded = await waitFor(async () => {
    const res = await json(await fetch(`${a.base}/api/payment/status/${payment.id}`, { headers: { [PAYMENT_KEY_HEADER]: payment.holdToken } }));
    return res.data.payment.status === 'refunded' && res.data.emailStatus === 'sent' ? res : undefined;
  }, 20_000, 250);
  expect(refunded.message).toMatch(/no longer available, so it was not booked\. A full refund of RM 100 has been issued/);
  expect(chip.refunds.filter((r) => r.purchaseId === purchase)).toEqual([{ purchaseId: purchase, amount: 10000 }]);
  const mails = await database.db.select().from(mailOutbox).where(eq(mailOutbox.paymentId, payment.id));
  expect(mails.map((m) => [m.kind, m.status]).sort()).toEqual([
    ['admin_refund', 'sent'],
    ['visitor_refund', 'sent'],
  ]);
});
