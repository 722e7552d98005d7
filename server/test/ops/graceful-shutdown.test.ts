jest.setTimeout(180_000);
import type { ChildProcess } from 'node:child_process';
import { inArray } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { slots as slotsTable } from '../../src/slots/tables';
import { mailOutbox } from '../../src/mail/tables';
import { payments } from '../../src/payments/tables';
import { sandboxSessions } from '../../src/payments/gateways/tables';
import { currentConsent, createThrowawayPostgres } from '../helpers';
import { startSmtp } from '../mail/support';
import { exited, freePort, json, removeProcessDirs, startApiProcess, stopAll, type Server } from '../payments/server-process';
import { SANDBOX_SECRET, waitFor } from '../payments/support';

// SIGTERM to a real API process (server/src/main.ts) while parents book and pay and the outbox sends to a slow mail server.
const PARENTS = 12;
// Slow enough that sending a whole claimed batch (10) would outlast the 10 s shutdown bound.
const SMTP_DELAY_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let database: DatabaseHandle;
let drop: () => Promise<void>;
let url: string;
const children: ChildProcess[] = [];

async function startApi(metricsPort = ''): Promise<Server> {
  const server = await startApiProcess('ops-shutdown', {
    DATABASE_URL: url,
    PAYMENT_GATEWAY: 'sandbox',
    SANDBOX_SECRET,
    SEED_DEMO: 'true',
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '200',
    RECONCILE_INTERVAL_MS: '1000',
    // Each parent comes from their own address (through a local proxy), so the per-address hold limit stays out of the way.
    TRUST_PROXY: '1',
    METRICS_PORT: metricsPort,
  });
  children.push(server.child);
  return server;
}

beforeAll(async () => {
  smtp = await startSmtp(0, SMTP_DELAY_MS);
  ({ url, drop } = await createThrowawayPostgres('ops_shutdown'));
  database = await openDatabase({ driver: 'postgres', url, poolSize: 2 });
});
afterAll(async () => {
  await stopAll(children);
  await database?.close();
  await drop?.();
  await smtp?.close();
  removeProcessDirs();
});

type Outcome = { kind: 'answer'; status: number } | { kind: 'connection_error'; code: string } | { kind: 'broken'; detail: string };

/** One request: a whole answer (status and a body read to its end), a clean connection error, or anything else (broken). */
async function attempt(target: string, init: RequestInit = {}): Promise<{ outcome: Outcome; body?: unknown }> {
  let res: Response;
  try {
    res = await fetch(target, { ...init, redirect: 'manual' });
  } catch (err) {
    const code = ((err as Error & { cause?: { code?: string } }).cause?.code ?? '') || (err as Error).message;
    return { outcome: /ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET|other side closed/.test(code) ? { kind: 'connection_error', code } : { kind: 'broken', detail: code } };
  }
  try {
    const text = await res.text();
    const body = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    return { outcome: { kind: 'answer', status: res.status }, body };
  } catch (err) {
    return { outcome: { kind: 'broken', detail: `status ${res.status}, body cut: ${(err as Error).message}` } };
  }
}

it('SIGTERM under load: every request is answered or cleanly refused, claimed mail is handed back, and a second process finishes every payment and sends each mail once', async () => {
  const metricsPort = await freePort();
  const a = await startApi(String(metricsPort));
  expect((await fetch(`${a.base}/health/ready`)).status).toBe(200);
  const list = (await json(await fetch(`${a.base}/public/list?limit=100&page=1`))).data.slots as { id: number; date: string; startTime: string }[];
  expect(list.length).toBeGreaterThanOrEqual(PARENTS);

  const outcomes: Outcome[] = [];
  const record = async (target: string, init?: RequestInit) => {
    const result = await attempt(target, init);
    outcomes.push(result.outcome);
    return result;
  };
  // A parent: initiate, press Pay on the sandbox checkout (its callback books the slot and writes two mails), poll the status.
  const parent = async (i: number) => {
    await sleep(i * 150);
    const slot = list[i];
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i + 1}` };
    const body = {
      slotId: slot.id,
      visitorName: `Shutdown Parent ${i}`,
      visitorEmail: `parent${i}@example.com`,
      visitorContactNo: `01234567${String(i).padStart(2, '0')}`,
      selectedSchool: 'Seri Ilmu International',
      childName: `Shutdown Child ${i}`,
      childYear: 'Year 7',
      fee: 10000,
      slotDate: slot.date,
      slotStartTime: slot.startTime,
      consent: currentConsent(),
    };
    const started = await record(`${a.base}/api/payment/initiate`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (started.outcome.kind !== 'answer' || started.outcome.status !== 200) return;
    const session = (started.body as { data: { paymentSession: { id: string; checkoutUrl: string } } }).data.paymentSession;
    const paid = await record(session.checkoutUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=pay&method=fpx',
    });
    if (paid.outcome.kind !== 'answer') return;
    for (let poll = 0; poll < 20; poll++) {
      const status = await record(`${a.base}/api/payment/status/${session.id}`);
      if (status.outcome.kind !== 'answer') return;
      await sleep(100);
    }
  };
  const parents = Array.from({ length: PARENTS }, (_, i) => parent(i));

  // SIGTERM once the outbox is being sent, with parents still arriving; Prometheus sees the payments on its own port.
  await waitFor(async () => smtp.received.length >= 3, 60_000, 20);
  expect(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).toMatch(/^booking_payments\{status="completed"\} [1-9]/m);
  const signalled = Date.now();
  a.child.kill('SIGTERM');
  const code = await exited(a.child);
  if (code !== 0) console.log(a.output());
  expect(code).toBe(0);
  // The message being sent finishes; the rest of the batch is handed back instead of sent first.
  expect(Date.now() - signalled).toBeLessThan(6 * SMTP_DELAY_MS);
  await Promise.all(parents);

  expect(outcomes.filter((o) => o.kind === 'broken')).toEqual([]);
  expect(outcomes.filter((o) => o.kind === 'answer' && o.status >= 500 && o.status !== 503)).toEqual([]);
  expect(outcomes.some((o) => o.kind === 'answer')).toBe(true);
  // The mail worker handed back what it had claimed and not sent: nothing waits out a claim.
  const afterA = await database.db.select().from(mailOutbox);
  expect(afterA.filter((m) => m.status === 'sending')).toEqual([]);
  const sentByA = smtp.received.length;
  expect(afterA.filter((m) => m.status === 'sent')).toHaveLength(sentByA);
  expect(afterA.filter((m) => m.status === 'pending').length).toBeGreaterThan(0);

  // A second process on the same database finishes what the first left: paid sessions book (reconciliation), mail goes out.
  const b = await startApi();
  const paidSessions = (await database.db.select().from(sandboxSessions)).filter((s) => s.status === 'paid').map((s) => s.id);
  expect(paidSessions.length).toBeGreaterThan(0);
  const settled = await waitFor(
    async () => {
      const rows = await database.db.select().from(payments);
      const mails = await database.db.select().from(mailOutbox);
      const done = rows.every((p) => (paidSessions.includes(p.gatewaySessionId!) ? p.status === 'completed' : p.status === 'pending'));
      return done && mails.length === 2 * paidSessions.length && mails.every((m) => m.status === 'sent') ? { rows, mails } : undefined;
    },
    90_000,
    250,
  );
  // Every paid payment has its booked slot; every other payment is still open, so reconciliation can still finish it.
  const parentSlots = await database.db.select().from(slotsTable).where(inArray(slotsTable.id, list.slice(0, PARENTS).map((s) => s.id)));
  const booked = parentSlots.filter((s) => s.status === 'booked').map((s) => ({ slotId: s.id, email: s.visitorEmail }));
  const completed = settled.rows.filter((p) => p.status === 'completed').map((p) => ({ slotId: p.slotId, email: p.visitorEmail }));
  expect(completed).toHaveLength(paidSessions.length);
  expect(booked.sort((x, y) => x.slotId - y.slotId)).toEqual(completed.sort((x, y) => x.slotId - y.slotId));
  // Each message reached the mail server exactly once.
  const messageIds = smtp.received.map((r) => r.mail.messageId);
  expect(messageIds).toHaveLength(settled.mails.length);
  expect(new Set(messageIds).size).toBe(settled.mails.length);
  expect(b.output()).not.toMatch(/error/i);
});
