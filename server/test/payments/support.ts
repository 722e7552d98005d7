import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { createThrowawayPostgres, currentConsent } from '../helpers';
import { buildApp, type App } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate, readMigrations } from '../../src/base/db/migrate';
import { slots } from '../../src/slots/tables';
import { sandboxCallbackHeaders } from '../../src/payments/gateways/sandbox';
import type { PaymentsConfig } from '../../src/payments/config';
import { mailOutbox } from '../../src/mail/tables';
import { payments } from '../../src/payments/tables';
import { sandboxSessions } from '../../src/payments/gateways/tables';

export { PG_ADMIN_URL } from '../helpers';
export const SANDBOX_SECRET = 'test-sandbox-secret-0123456789abcdef';
export type Driver = 'pglite' | 'postgres';

/** A migrated in-memory PGlite, started from a dump cached in the temp folder (initdb takes seconds). */
export async function freshPglite(): Promise<DatabaseHandle> {
  const key = createHash('sha256')
    .update(readMigrations().map((m) => m.name + m.sql).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(os.tmpdir(), `payments-test-pglite-${key}.tar`);
  if (fs.existsSync(file)) return openDatabase({ driver: 'pglite', inMemory: true, loadDataDir: new Blob([fs.readFileSync(file)]) });
  const database = await openDatabase({ driver: 'pglite', inMemory: true });
  await migrate(database);
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, Buffer.from(await (await database.dump!()).arrayBuffer()));
  fs.renameSync(tmp, file);
  return database;
}

// One throwaway-database helper for every server test.
export { createThrowawayPostgres as throwawayPostgres };

export type PayCtx = { app: App; database: DatabaseHandle; config: Config; baseUrl: string; close: () => Promise<void> };

/** The whole API listening on an ephemeral port (the sandbox's callbacks are real HTTP requests to it). */
export async function startPaymentsApp(driver: Driver, payments: Partial<PaymentsConfig> = {}): Promise<PayCtx> {
  let drop: (() => Promise<void>) | undefined;
  let database: DatabaseHandle;
  if (driver === 'postgres') {
    const pgdb = await createThrowawayPostgres('payments_test');
    drop = pgdb.drop;
    database = await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 6 });
  } else {
    database = await freshPglite();
  }
  await migrate(database);
  const base = loadConfig({});
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-test-'));
  const config: Config = {
    ...base,
    dataDir,
    seedDemo: false,
    payments: {
      ...base.payments,
      dataDir,
      sandboxSecret: SANDBOX_SECRET,
      publicSiteUrl: 'http://site.test',
      reconcileIntervalMs: 0,
      ...payments,
    },
  };
  const app = await buildApp({ database, config, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  config.payments.apiPublicUrl = baseUrl;
  return {
    app,
    database,
    config,
    baseUrl,
    close: async () => {
      await app.close();
      await database.close();
      await drop?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Inserts a slot starting `hoursAhead` hours from now (whole minutes). */
export async function insertSlot(database: DatabaseHandle, hoursAhead = 48) {
  const start = new Date(Math.floor((Date.now() + hoursAhead * 3_600_000) / 60_000) * 60_000);
  const [row] = await database.db.insert(slots).values({ startAt: start, endAt: new Date(start.getTime() + 30 * 60_000) }).returning();
  return row;
}

export const visitor = {
  visitorName: 'Nur Aina',
  visitorEmail: 'aina@example.com',
  visitorContactNo: '012 345 6789',
  selectedSchool: 'Seri Ilmu Private Secondary',
  childName: 'Adam Firdaus',
  childYear: 'Form 1',
};

/**
 * Each email is its own parent, as on a real day: their own phone number and their own address (the hold limits count
 * one live hold per email and per phone, and a handful of holds per address).
 */
export function parentOf(email: string) {
  const n = parseInt(createHash('sha256').update(email).digest('hex').slice(0, 8), 16);
  const phone = email === visitor.visitorEmail ? visitor.visitorContactNo : `01${String(10_000_000 + (n % 89_999_999))}`;
  return { visitorContactNo: phone, address: `10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}` };
}

/** The initiate body for a slot, as the booking dialog sends it (fee 7500 sen for the secondary school). */
export function initiateBody(slot: { id: number; startAt: Date }, extra: Record<string, unknown> = {}) {
  const my = new Date(slot.startAt.getTime() + 8 * 3_600_000).toISOString();
  const email = (extra.visitorEmail as string | undefined) ?? visitor.visitorEmail;
  const contact = { visitorContactNo: parentOf(email).visitorContactNo };
  return { ...visitor, ...contact, slotId: slot.id, fee: 7500, slotDate: my.slice(0, 10), slotStartTime: my.slice(11, 16), consent: currentConsent(), ...extra };
}

/** POST /api/payment/initiate from the parent's own address (their email's), unless one is given. */
export async function initiate(ctx: PayCtx, body: Record<string, unknown>, address?: string) {
  const remoteAddress = address ?? parentOf(String(body.visitorEmail)).address;
  return ctx.app.inject({ method: 'POST', url: '/api/payment/initiate', payload: body, remoteAddress });
}

/** POST /slot/{id}/reserve from the address of the parent with this email: the hold token. */
export async function reserve(ctx: PayCtx, slotId: number, email = visitor.visitorEmail): Promise<string> {
  const res = await ctx.app.inject({ method: 'POST', url: `/slot/${slotId}/reserve`, payload: {}, remoteAddress: parentOf(email).address });
  if (res.statusCode !== 200) throw new Error(`reserve failed: ${res.statusCode} ${res.body}`);
  return res.json().data.token as string;
}

/** Initiates and returns the payment session plus its sandbox session id. */
export async function initiateOk(ctx: PayCtx, body: Record<string, unknown>) {
  const res = await initiate(ctx, body);
  if (res.statusCode !== 200) throw new Error(`initiate failed: ${res.statusCode} ${res.body}`);
  const session = res.json().data.paymentSession as { id: string; paymentId: string; checkoutUrl: string; clientReference: string; expiresAt: string; holdToken: string };
  const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, session.id));
  return { session, payment: row, sandboxId: row.gatewaySessionId! };
}

/** Builds and posts a signed sandbox callback, exactly as the sandbox gateway sends one. */
export async function postSandboxCallback(
  ctx: PayCtx,
  data: { session_id: string; reference?: string; status: string; method?: string; amount?: number },
  options: { eventId?: string; secret?: string; now?: number } = {},
) {
  const body = JSON.stringify({
    id: options.eventId ?? `evt_${Math.random().toString(16).slice(2)}`,
    type: `checkout.${data.status}`,
    created: Math.floor(Date.now() / 1000),
    data: { currency: 'MYR', method: 'fpx', ...data },
  });
  return fetch(`${ctx.baseUrl}/api/payment/callback`, {
    method: 'POST',
    headers: sandboxCallbackHeaders(options.secret ?? SANDBOX_SECRET, body, options.now),
    body,
  });
}

/** Marks the sandbox session paid as its page's Pay button would (no callback: the test sends it when it wants). */
export async function markSandboxPaid(ctx: PayCtx, sandboxId: string) {
  await ctx.database.db.update(sandboxSessions).set({ status: 'paid', method: 'fpx', paidAt: new Date() }).where(eq(sandboxSessions.id, sandboxId));
}

export const slotRow = async (ctx: PayCtx, id: number) => (await ctx.database.db.select().from(slots).where(eq(slots.id, id)))[0];
export const paymentRow = async (ctx: PayCtx, id: string) => (await ctx.database.db.select().from(payments).where(eq(payments.id, id)))[0];
export const outboxFor = (ctx: PayCtx, paymentId: string) => ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.paymentId, paymentId));
export const publicIds = async (ctx: PayCtx): Promise<number[]> =>
  (await ctx.app.inject('/public/list?limit=100&page=1')).json().data.slots.map((s: { id: number }) => s.id);

/** Ends the slot's hold as if 15 minutes had passed. */
export async function expireHold(ctx: PayCtx, slotId: number) {
  await ctx.database.db.update(slots).set({ holdExpiresAt: sql`now() - interval '1 minute'` }).where(eq(slots.id, slotId));
}

/**
 * As if `minutes` had passed for holds and payments: every hold's end, every granted hold time and every payment's
 * times move that far into the past (the hold-time cap is tested without waiting for it).
 */
export async function ageHolds(database: DatabaseHandle, minutes: number) {
  const by = sql`make_interval(secs => ${minutes * 60})`;
  await database.db.execute(sql`UPDATE slots SET hold_expires_at = hold_expires_at - ${by} WHERE hold_expires_at IS NOT NULL`);
  await database.db.execute(sql`UPDATE hold_grants SET started_at = started_at - ${by}, ends_at = ends_at - ${by}`);
  await database.db.execute(sql`UPDATE payments SET created_at = created_at - ${by}, session_expires_at = session_expires_at - ${by}`);
}

export async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, stepMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** When the payment's waiting refund job (pg-boss `refund` queue) runs next; null when none waits. */
export async function nextRefundTry(database: DatabaseHandle, paymentId: string): Promise<Date | null> {
  const { rows } = await database.exec(
    `SELECT min(start_after) AS at FROM pgboss.job WHERE name = 'refund' AND singleton_key = $1 AND state IN ('created', 'retry')`,
    [paymentId],
  );
  return rows[0]?.at ? new Date(rows[0].at as string) : null;
}

/** As if the wait before the payment's next refund try had passed: its job is due now (a worker then runs it). */
// A second in the past: pg-boss takes jobs with start_after < now(), and the next statement may read the same now().
export async function makeRefundDue(database: DatabaseHandle, paymentId: string): Promise<void> {
  await database.exec(`UPDATE pgboss.job SET start_after = now() - interval '1 second' WHERE name = 'refund' AND singleton_key = $1 AND state IN ('created', 'retry')`, [paymentId]);
}
