jest.setTimeout(60_000);
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { visitorDetailsSchema } from 'shared-api/contract';
import { sandboxCallbackHeaders } from '../../src/payments/gateways/sandbox';
import { initiateBody, initiateOk, insertSlot, SANDBOX_SECRET, startPaymentsApp, type PayCtx } from './support';

// Malformed input at every payment route: a clear 4xx envelope, never a 5xx, nothing written.
const RUNS = { numRuns: 40 };
let ctx: PayCtx;
let slot: Awaited<ReturnType<typeof insertSlot>>;
let paymentId: string;
let sandboxId: string;

const snapshot = async () => {
  const rows = await Promise.all(
    ['slots', 'payments', 'payment_events', 'mail_outbox', 'sandbox_sessions'].map(async (t) =>
      JSON.stringify(
        ((await ctx.database.db.execute(sql.raw(`SELECT * FROM ${t} ORDER BY 1`))) as unknown as { rows: Record<string, unknown>[] }).rows.map(
          // When the gateway was last asked is bookkeeping: any status lookup of the open payment may write it.
          ({ last_checked_at: _checked, ...row }) => row,
        ),
      ),
    ),
  );
  return rows.join('\n');
};
let before: string;

beforeAll(async () => {
  ctx = await startPaymentsApp('pglite', { sandboxCallbackDrop: true });
  slot = await insertSlot(ctx.database, 30);
  const other = await insertSlot(ctx.database, 31);
  const created = await initiateOk(ctx, initiateBody(other));
  paymentId = created.session.id;
  sandboxId = created.sandboxId;
  before = await snapshot();
});
afterAll(() => ctx?.close());
afterEach(async () => {
  expect(await snapshot()).toBe(before);
});

async function expectRefused(method: 'GET' | 'POST', url: string, payload?: string, headers: Record<string, string> = {}) {
  const res = await ctx.app.inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, ...(payload === undefined ? {} : { payload }) });
  if (res.statusCode < 400 || res.statusCode >= 500) throw new Error(`${method} ${url} ${payload} -> ${res.statusCode} ${res.body}`);
  expect(res.json()).toMatchObject({ success: false, message: expect.any(String), error: expect.any(String) });
  return res.statusCode;
}

const anyBody = fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), fc.string(), fc.constantFrom('{', 'null', '[]', '{"a":'));

it('initiate refuses any malformed body', async () => {
  await fc.assert(fc.asyncProperty(anyBody, async (body) => void (await expectRefused('POST', '/api/payment/initiate', body))), RUNS);
});

it('initiate refuses a valid-looking body with one field spoiled', async () => {
  const good = initiateBody(slot);
  const spoil = fc.oneof(
    fc.record({ key: fc.constantFrom('slotId', 'fee', 'slotDate', 'slotStartTime', 'visitorName', 'visitorEmail', 'visitorContactNo', 'selectedSchool', 'preferredPaymentMethod'), value: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.double()) }),
  );
  await fc.assert(
    fc.asyncProperty(spoil, async ({ key, value }) => {
      const body = { ...good, [key]: value };
      // A spoiled value that happens to be valid (e.g. a real phone number) may be accepted: skip those.
      if ((key === 'slotId' && value === slot.id) || (key === 'fee' && value === 7500)) return;
      if ((key === 'visitorName' || key === 'visitorContactNo') && visitorDetailsSchema.shape[key].safeParse(value).success) return;
      await expectRefused('POST', '/api/payment/initiate', JSON.stringify(body));
    }),
    RUNS,
  );
});

it('the callback refuses any unsigned or wrongly signed body with 401', async () => {
  await fc.assert(
    fc.asyncProperty(anyBody, fc.string(), fc.string(), async (body, ts, sig) => {
      expect(await expectRefused('POST', '/api/payment/callback', body, { 'x-sandbox-timestamp': ts, 'x-sandbox-signature': sig })).toBe(401);
    }),
    RUNS,
  );
  // Correctly signed but for a body the signature does not cover.
  const signed = JSON.stringify({ id: 'evt_1', data: { session_id: sandboxId, status: 'paid' } });
  const headers = sandboxCallbackHeaders(SANDBOX_SECRET, signed);
  expect(await expectRefused('POST', '/api/payment/callback', signed.replace('paid', 'failed'), headers)).toBe(401);
  // Signed garbage: the signature holds, the content does not.
  const junk = '{"hello":"world"}';
  expect(await expectRefused('POST', '/api/payment/callback', junk, sandboxCallbackHeaders(SANDBOX_SECRET, junk))).toBe(401);
});

it('status, verify and cancel refuse unknown or malformed ids', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ minLength: 1, maxLength: 120 }).filter((s) => s !== paymentId), async (id) => {
      const enc = encodeURIComponent(id);
      await expectRefused('GET', `/api/payment/status/${enc}`);
      await expectRefused('GET', `/api/payment/status/reference/${enc}`);
      await expectRefused('POST', `/api/payment/${enc}/cancel`, '{}');
      await expectRefused('POST', '/api/payment/verify', JSON.stringify({ paymentId: id }));
    }),
    RUNS,
  );
  await expectRefused('POST', '/api/payment/verify', JSON.stringify({ paymentId, bookingId: 'someone-else' }));
});

it('the sandbox page refuses unknown sessions and bad form posts', async () => {
  expect((await ctx.app.inject('/sandbox-gateway/checkout/nope')).statusCode).toBe(404);
  const bad = await ctx.app.inject({
    method: 'POST',
    url: `/sandbox-gateway/checkout/${sandboxId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'action=steal',
  });
  expect(bad.statusCode).toBe(400);
});
