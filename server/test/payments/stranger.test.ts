jest.setTimeout(240_000);
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { and, count, eq } from 'drizzle-orm';
import { ErrorCode, PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { slots } from '../../src/slots/tables';
import { bookingEvents, manageTokens } from '../../src/bookings/tables';
import { payments } from '../../src/payments/tables';
import { removeProcessDirs, startApiProcess, stopAll } from './server-process';
import { currentConsent } from '../helpers';
import { insertSlot, SANDBOX_SECRET, startPaymentsApp, throwawayPostgres, waitFor, type PayCtx } from './support';

// Issue 23: the reference is printed in every mail, on the success URL, in the staff CSV and calendar feeds; the payment
// id is in the gateway's failure URL. A stranger holding them (another client address, 127.0.0.2) must learn nothing
// personal and change nothing: not read the visitor, not cancel the parent's pending payment (and take the slot), not
// mint a manage link. The parent's browser (127.0.0.1), with the payment's key, still gets everything.

const PARENT = '127.0.0.1';
const STRANGER = '127.0.0.2';
const family = {
  visitorName: 'Siti Stranger-Target',
  visitorEmail: 'siti.target@example.com',
  visitorContactNo: '0123987654',
  selectedSchool: 'Seri Ilmu Private Secondary',
  childName: 'Hana Stranger-Target',
  childYear: 'Form 4',
};

type Answer = { status: number; text: string; body: { success: boolean; data: unknown; message: string; error?: string } };

/** One HTTP request from a chosen loopback address, as a client on another machine would send it. */
function send(base: string, from: string, method: string, path: string, options: { json?: unknown; form?: string; key?: string } = {}): Promise<Answer> {
  const url = new URL(path, base);
  const payload = options.json !== undefined ? JSON.stringify(options.json) : options.form;
  const headers: Record<string, string> = {};
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  if (options.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  if (options.key !== undefined) headers[PAYMENT_KEY_HEADER] = options.key;
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, localAddress: from, headers }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, text, body: text.startsWith('{') ? JSON.parse(text) : { success: false, data: null, message: text } }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** Where the chain runs: one or two API bases on one database, and a slot to book. */
type Stage = { apis: string[]; database: DatabaseHandle; slot: () => Promise<{ id: number; date: string; startTime: string }> };

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function attackChain(stage: Stage) {
  const { apis, database } = stage;
  const api = (i: number) => apis[i % apis.length];
  const slot = await stage.slot();
  const slotRow = async () => (await database.db.select().from(slots).where(eq(slots.id, slot.id)))[0];
  const paymentRow = async (id: string) => (await database.db.select().from(payments).where(eq(payments.id, id)))[0];

  // The parent holds the slot and starts paying; they are now on the gateway's page.
  const reserved = await send(api(0), PARENT, 'POST', `/slot/${slot.id}/reserve`, { json: {} });
  expect(reserved.status).toBe(200);
  const holdToken = (reserved.body.data as { token: string }).token;
  const initiated = await send(api(0), PARENT, 'POST', '/api/payment/initiate', {
    json: { ...family, slotId: slot.id, fee: 7500, slotDate: slot.date, slotStartTime: slot.startTime, holdToken, consent: currentConsent() },
  });
  expect(initiated.status).toBe(200);
  const session = (initiated.body.data as { paymentSession: { id: string; clientReference: string; checkoutUrl: string; holdToken: string } }).paymentSession;
  expect(session.holdToken).toBe(holdToken);
  const { id: paymentId, clientReference: reference } = session;
  const holdBefore = await slotRow();
  expect(holdBefore.holdTokenHash).toBe(sha256(holdToken));

  /** Nothing personal and no payment id in an answer the stranger got: only what a receipt shows. */
  const revealsNothing = (answer: Answer, confirmed: boolean) => {
    expect(answer.status).toBe(200);
    for (const secret of [paymentId, holdToken, family.visitorName, family.visitorEmail, family.visitorContactNo]) expect(answer.text).not.toContain(secret);
    const data = answer.body.data as { owner: boolean; payment: object; booking: object };
    expect(data.owner).toBe(false);
    expect(Object.keys(data).sort()).toEqual(['booking', 'owner', 'payment']);
    expect(data.payment).toEqual({ status: expect.any(String), amount: 7500, reference });
    expect(data.booking).toEqual({ confirmed, date: slot.date, startTime: slot.startTime, endTime: expect.any(String), selectedSchool: family.selectedSchool, calendarSequence: 0 });
  };
  const refused = (answer: Answer, status: number) => {
    expect(answer.status).toBe(status);
    expect(answer.body.data).toBeNull();
    for (const secret of [paymentId, holdToken, family.visitorName, family.visitorEmail]) expect(answer.text).not.toContain(secret);
  };

  // 1. With the reference alone, on either process: status (both routes) and verify reveal nothing.
  for (let i = 0; i < 2; i++) {
    revealsNothing(await send(api(i), STRANGER, 'GET', `/api/payment/status/reference/${reference}`), false);
    revealsNothing(await send(api(i), STRANGER, 'GET', `/api/payment/status/${reference}`), false);
    revealsNothing(await send(api(i), STRANGER, 'POST', '/api/payment/verify', { json: { paymentId: reference } }), false);
    refused(await send(api(i), STRANGER, 'POST', '/api/booking/manage-link', { json: { paymentId: reference } }), 404);
    refused(await send(api(i), STRANGER, 'POST', `/api/payment/${reference}/cancel`), 404);
  }

  // 2. Even with the payment id (the gateway's failure URL, a shared browser's history) and made-up keys.
  for (let i = 0; i < 2; i++) {
    revealsNothing(await send(api(i), STRANGER, 'GET', `/api/payment/status/${paymentId}`), false);
    revealsNothing(await send(api(i), STRANGER, 'POST', '/api/payment/verify', { json: { paymentId, bookingId: reference } }), false);
    for (const key of [undefined, reference, paymentId, `${holdToken}x`]) {
      revealsNothing(await send(api(i), STRANGER, 'GET', `/api/payment/status/reference/${reference}`, { key }), false);
      const cancel = await send(api(i), STRANGER, 'POST', `/api/payment/${paymentId}/cancel`, { key });
      refused(cancel, 403);
      expect(cancel.body.error).toBe(ErrorCode.FORBIDDEN);
      refused(await send(api(i), STRANGER, 'POST', '/api/booking/manage-link', { json: { paymentId }, key }), 403);
    }
  }

  // 3. The parent's payment is still open and their hold untouched: the stranger cannot take the slot.
  expect((await paymentRow(paymentId)).status).toBe('pending');
  expect(await slotRow()).toEqual(holdBefore);
  const grab = await send(api(1), STRANGER, 'POST', '/api/payment/initiate', {
    json: { visitorName: 'Slot Taker', visitorEmail: 'taker@example.com', visitorContactNo: '0195551234', selectedSchool: family.selectedSchool, childName: 'Taker Child', childYear: 'Form 1', slotId: slot.id, fee: 7500, slotDate: slot.date, slotStartTime: slot.startTime, consent: currentConsent() },
  });
  expect(grab.status).toBe(409);
  expect(grab.body.error).toBe(ErrorCode.SLOT_RESERVED);

  // 4. The parent presses Pay: the gateway's signed callback books the slot.
  const paid = await send(session.checkoutUrl, PARENT, 'POST', new URL(session.checkoutUrl).pathname, { form: 'action=pay&method=fpx' });
  expect(paid.status).toBe(303);
  await waitFor(async () => (await paymentRow(paymentId)).bookingStatus === 'booked', 20_000, 100);

  // 5. After the booking: still nothing for the stranger, and no manage link was minted for anyone but the parent.
  for (let i = 0; i < 2; i++) {
    revealsNothing(await send(api(i), STRANGER, 'GET', `/api/payment/status/reference/${reference}`), true);
    revealsNothing(await send(api(i), STRANGER, 'GET', `/api/payment/status/${paymentId}`), true);
    refused(await send(api(i), STRANGER, 'POST', '/api/booking/manage-link', { json: { paymentId } }), 403);
    refused(await send(api(i), STRANGER, 'POST', `/api/payment/${paymentId}/cancel`), 403);
  }
  const browserLinks = async () =>
    Number((await database.db.select({ n: count() }).from(manageTokens).where(and(eq(manageTokens.paymentId, paymentId), eq(manageTokens.purpose, 'browser'))))[0].n);
  expect(await browserLinks()).toBe(0);
  expect((await database.db.select().from(bookingEvents).where(eq(bookingEvents.paymentId, paymentId))).map((e) => e.kind)).toEqual(['booked']);
  expect(await paymentRow(paymentId)).toMatchObject({ status: 'completed', bookingStatus: 'booked' });

  // 6. The parent's browser, with the payment's key, on either process: the whole receipt and a manage link.
  for (let i = 0; i < 2; i++) {
    const own = await send(api(i), PARENT, 'GET', `/api/payment/status/reference/${reference}`, { key: holdToken });
    expect(own.body.data).toMatchObject({
      owner: true,
      payment: { id: paymentId, status: 'completed', reference },
      booking: { confirmed: true, visitorName: family.visitorName, visitorEmail: family.visitorEmail },
      emailStatus: expect.any(String),
    });
    const verified = await send(api(i), PARENT, 'POST', '/api/payment/verify', { json: { paymentId, bookingId: slot.id }, key: holdToken });
    expect(verified.body.data).toMatchObject({ owner: true, payment: { id: paymentId } });
    const link = await send(api(i), PARENT, 'POST', '/api/booking/manage-link', { json: { paymentId }, key: holdToken });
    expect(link.status).toBe(200);
    const view = await send(api(i + 1), PARENT, 'GET', `/api/booking/manage/${(link.body.data as { token: string }).token}`);
    expect(view.body.data).toMatchObject({ reference, state: 'booked' });
  }
  expect(await browserLinks()).toBe(2);

  // 7. The parent may still cancel a payment of their own that is pending (here on their next booking).
  const next = await stage.slot();
  const again = await send(api(1), PARENT, 'POST', '/api/payment/initiate', {
    json: { ...family, slotId: next.id, fee: 7500, slotDate: next.date, slotStartTime: next.startTime, consent: currentConsent() },
  });
  expect(again.status).toBe(200);
  const second = (again.body.data as { paymentSession: { id: string; holdToken: string } }).paymentSession;
  refused(await send(api(0), STRANGER, 'POST', `/api/payment/${second.id}/cancel`), 403);
  const cancelled = await send(api(0), PARENT, 'POST', `/api/payment/${second.id}/cancel`, { key: second.holdToken });
  expect(cancelled.status).toBe(200);
  expect(cancelled.body.data).toMatchObject({ owner: true, payment: { id: second.id, status: 'cancelled' } });
  expect((await database.db.select().from(slots).where(eq(slots.id, next.id)))[0].holdTokenHash).toBeNull();
}

/** A slot as the public list shows it (date and start in GMT+8): what a browser books. */
const asListed = (row: { id: number; startAt: Date }) => {
  const my = new Date(row.startAt.getTime() + 8 * 3_600_000).toISOString();
  return { id: row.id, date: my.slice(0, 10), startTime: my.slice(11, 16) };
};

describe('a stranger with the reference and the payment id, on PGlite', () => {
  let ctx: PayCtx;
  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
  });
  afterAll(() => ctx?.close());

  let hoursAhead = 48;
  it('learns nothing personal, cancels nothing, gets no manage link; the parent keeps everything', async () => {
    await attackChain({ apis: [ctx.baseUrl], database: ctx.database, slot: async () => asListed(await insertSlot(ctx.database, (hoursAhead += 1))) });
  });
});

describe('a stranger with the reference and the payment id, on PostgreSQL with two API processes', () => {
  const children: ChildProcess[] = [];
  let drop: (() => Promise<void>) | undefined;
  let database: DatabaseHandle;
  const apis: string[] = [];

  beforeAll(async () => {
    const pg = await throwawayPostgres('stranger_two');
    drop = pg.drop;
    const env = { DATABASE_URL: pg.url, SANDBOX_SECRET, SEED_DEMO: 'false', RECONCILE_INTERVAL_MS: '600000' };
    // One after the other: the first migrates.
    for (let i = 0; i < 2; i++) {
      const server = await startApiProcess('stranger', env);
      children.push(server.child);
      apis.push(server.base);
    }
    database = await openDatabase({ driver: 'postgres', url: pg.url, poolSize: 2 });
  });
  afterAll(async () => {
    await stopAll(children);
    await database?.close();
    await drop?.();
    removeProcessDirs();
  });

  let hoursAhead = 48;
  it('learns nothing personal, cancels nothing, gets no manage link on either process; the parent keeps everything', async () => {
    await attackChain({ apis, database, slot: async () => asListed(await insertSlot(database, (hoursAhead += 1))) });
  });
});
