jest.setTimeout(60_000);
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { brand, inMY, PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { emlFileSender, smtpSender } from '../../src/mail/transport';
import { loadPaymentsConfig } from '../../src/payments/config';
import { mailOutbox } from '../../src/mail/tables';
import { mailJobsDueNow, mailJobsOf, mailQueueOf, startSmtp } from './support';
import {
  initiateBody,
  initiateOk,
  insertSlot,
  markSandboxPaid,
  outboxFor,
  postSandboxCallback,
  startPaymentsApp,
  waitFor,
  type Driver,
  type PayCtx,
} from '../payments/support';

const XSS_NAME = '<img src=x onerror=alert(1)>';
const FROM = '"Seri Ilmu" <admissions@seriilmu.edu.my>';

/** A port with nothing listening on it. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Books a slot through the real payment path (initiate, gateway paid, signed callback). */
async function paidBooking(ctx: PayCtx, hoursAhead: number, extra: Record<string, unknown> = {}) {
  const slot = await insertSlot(ctx.database, hoursAhead);
  const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, extra));
  await markSandboxPaid(ctx, sandboxId);
  const res = await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
  if (res.status !== 200) throw new Error(`callback refused: ${res.status}`);
  return { slot, session };
}

/** The status answer the paying browser reads (it sends the payment's key): with the mails' state. */
const statusOf = async (ctx: PayCtx, session: { id: string; holdToken: string }) =>
  (await ctx.app.inject({ url: `/api/payment/status/${session.id}`, headers: { [PAYMENT_KEY_HEADER]: session.holdToken } })).json().data;

describe('confirmation mail on pglite', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ctx: PayCtx;
  beforeAll(async () => {
    smtp = await startSmtp();
    ctx = await startPaymentsApp('pglite', { sandboxCallbackDrop: true, smtpUrl: smtp.url, mailFrom: FROM, adminNotifyEmail: 'office@school.test' });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('sends the visitor confirmation (HTML + text + .ics, name escaped) and the admin notification once each, after the booking commits', async () => {
    const { slot, session } = await paidBooking(ctx, 50, { visitorName: XSS_NAME, visitorEmail: 'parent@example.com', visitorContactNo: '0123456789' });
    // Until the payment's outbox has nothing left to send: no later round can add a mail.
    await waitFor(async () => {
      const rows = await outboxFor(ctx, session.id);
      return rows.length === 2 && rows.every((row) => row.status === 'sent');
    });
    expect(smtp.received).toHaveLength(2);
    const visitorMail = smtp.received.find((r) => r.to.includes('parent@example.com'))!;
    const adminMail = smtp.received.find((r) => r.to.includes('office@school.test'))!;
    expect(visitorMail && adminMail).toBeTruthy();

    const date = inMY(slot.startAt).format('dddd, D MMMM YYYY');
    const time = `${inMY(slot.startAt).format('h:mm A')} – ${inMY(slot.endAt).format('h:mm A')} (GMT+8)`;
    const v = visitorMail.mail;
    expect(v.from?.text).toContain('admissions@seriilmu.edu.my');
    expect(v.subject).toBe(`Booking confirmed: Seri Ilmu Private Secondary, ${date} at ${inMY(slot.startAt).format('h:mm A')} (GMT+8)`);
    for (const line of [
      `Dear ${XSS_NAME},`,
      'School: Seri Ilmu Private Secondary',
      `Date: ${date}`,
      `Time: ${time}`,
      'Amount paid: RM 75',
      `Payment reference: ${session.clientReference}`,
      '- Parent/guardian ID',
      "- Student's birth certificate",
      '- Immunization records',
      '- Previous academic records',
      brand.registrationFormUrl,
    ])
      expect(v.text).toContain(line);
    const html = v.html as string;
    expect(html).toContain('Dear &lt;img src=x onerror=alert(1)&gt;,');
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain(`href="${brand.registrationFormUrl}"`);
    expect(html).toContain('RM 75');
    expect(html).toContain(time);

    expect(v.attachments).toHaveLength(1);
    const ics = v.attachments[0];
    expect(ics.filename).toBe('assessment-visit.ics');
    expect(ics.contentType).toBe('text/calendar');
    const cal = ics.content.toString('utf8').replace(/\r\n /g, '');
    expect(cal).toContain('BEGIN:VTIMEZONE\r\nTZID:Asia/Singapore');
    expect(cal).toContain(`DTSTART;TZID=Asia/Singapore:${inMY(slot.startAt).format('YYYYMMDDTHHmmss')}`);
    expect(cal).toContain(`DTEND;TZID=Asia/Singapore:${inMY(slot.endAt).format('YYYYMMDDTHHmmss')}`);
    expect(cal).toContain('SUMMARY:Assessment visit: Seri Ilmu Private Secondary');
    expect(cal).toContain('mailto:parent@example.com');
    expect(cal).toContain(`UID:${session.clientReference}@`);

    const a = adminMail.mail;
    expect(a.subject).toContain('New booking:');
    expect(a.text).toContain(`Visitor: ${XSS_NAME}`);
    // As the staff desk writes it (shared-api's formatPhone).
    expect(a.text).toContain('Contact number: 012-345 6789');
    expect(a.text).toContain(`Payment reference: ${session.clientReference}`);
    expect(a.html as string).not.toMatch(/<img/i);
    expect(a.html as string).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(a.attachments).toHaveLength(0);

    const data = await statusOf(ctx, session);
    expect(data.emailStatus).toBe('sent');
    expect(data.emailTimeouts).toEqual({ visitorEmailTimeout: false, adminEmailTimeout: false });

    // Another pass sends nothing again, nor does a repeated job for a message that left.
    expect(await ctx.app.mailQueue.runOnce()).toBe(0);
    const sentRows = await outboxFor(ctx, session.id);
    expect((await mailJobsOf(ctx.database, sentRows.map((r) => r.id))).map((j) => [j.state, j.singletonKey]).sort()).toEqual([
      ['completed', `booking:${session.id}:admin`],
      ['completed', `booking:${session.id}:visitor`],
    ]);
    await ctx.app.jobs.send('mail', { mailId: sentRows[0].id }, { singletonKey: `booking:${session.id}:visitor` });
    expect(await ctx.app.mailQueue.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(2);
    expect((await outboxFor(ctx, session.id)).map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  describe('with the app’s own worker stopped (explicit queues below, as other processes)', () => {
    beforeAll(() => ctx.app.jobs.stopWorking('mail'));

    it('keeps the mail when SMTP is down and sends it once SMTP is back', async () => {
      const port = await freePort();
      const { session } = await paidBooking(ctx, 51, { visitorEmail: 'down@example.com' });
      const downWorker = mailQueueOf(ctx.database, smtpSender(`smtp://127.0.0.1:${port}`), { from: FROM });
      expect(await downWorker.runOnce()).toBe(0);
      await downWorker.stop();
      let rows = await outboxFor(ctx, session.id);
      expect(rows.map((r) => r.status)).toEqual(['pending', 'pending']);
      expect(rows.every((r) => r.attempts === 1 && r.lastError)).toBe(true);
      // Each is tried again by its job, after the retry delay.
      expect((await mailJobsOf(ctx.database, rows.map((r) => r.id))).map((j) => [j.state, j.waitSeconds > 0])).toEqual([
        ['retry', true],
        ['retry', true],
      ]);
      expect((await statusOf(ctx, session)).emailStatus).toBe('pending');

      // Not due yet: a pass before the retry delay sends nothing.
      const back = await startSmtp(port);
      const upWorker = mailQueueOf(ctx.database, smtpSender(back.url), { from: FROM });
      try {
        expect(await upWorker.runOnce()).toBe(0);
        await mailJobsDueNow(ctx.database);
        expect(await upWorker.runOnce()).toBe(2);
        expect(back.received.map((r) => r.to[0]).sort()).toEqual(['down@example.com', 'office@school.test']);
        rows = await outboxFor(ctx, session.id);
        expect(rows.map((r) => [r.status, r.attempts])).toEqual([
          ['sent', 2],
          ['sent', 2],
        ]);
        expect((await statusOf(ctx, session)).emailStatus).toBe('sent');
      } finally {
        await upWorker.stop();
        await back.close();
      }
    });

    it('reports a timeout (emailStatus timeout, both flags) when SMTP accepts but never answers', async () => {
      const silent = net.createServer(() => {});
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
      try {
        const { session } = await paidBooking(ctx, 52, { visitorEmail: 'slow@example.com' });
        const url = `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`;
        const worker = mailQueueOf(ctx.database, smtpSender(url, { connectionTimeoutMs: 300, greetingTimeoutMs: 300, socketTimeoutMs: 300 }), { from: FROM });
        await worker.runOnce();
        await worker.stop();
        const data = await statusOf(ctx, session);
        expect(data.emailStatus).toBe('timeout');
        expect(data.emailTimeouts).toEqual({ visitorEmailTimeout: true, adminEmailTimeout: true });
      } finally {
        await new Promise<void>((r) => silent.close(() => r()));
      }
    });

    const stops: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const stop of stops) await stop();
    });
    /** Only this payment's messages are left to send (earlier tests' rows would be claimed too). */
    const onlyMailOf = (paymentId: string) =>
      ctx.database.db.update(mailOutbox).set({ status: 'sent' }).where(sql`${mailOutbox.paymentId} <> ${paymentId}`);
    /** As if the messages had been written `minutes` ago (their jobs are made due by mailJobsDueNow). */
    const writtenMinutesAgo = (paymentId: string, minutes: number) =>
      ctx.database.db
        .update(mailOutbox)
        .set({ createdAt: sql`now() - make_interval(mins => ${minutes})` })
        .where(eq(mailOutbox.paymentId, paymentId));
    it('keeps a message through a three-day outage (a retry every MAIL_RETRY_SECONDS, 30 s) and sends it once SMTP answers', async () => {
      const smtpDown = await startSmtp();
      smtpDown.refuse(true);
      const worker = mailQueueOf(ctx.database, smtpSender(smtpDown.url), { from: FROM });
      try {
        const { session } = await paidBooking(ctx, 55, { visitorEmail: 'outage@example.com' });
        await onlyMailOf(session.id);
        const ids = (await outboxFor(ctx, session.id)).map((r) => r.id);
        const waits: number[][] = [];
        for (let attempt = 1; attempt <= 9; attempt++) {
          await mailJobsDueNow(ctx.database);
          expect(await worker.runOnce()).toBe(0);
          waits.push((await mailJobsOf(ctx.database, ids)).map((j) => j.waitSeconds));
        }
        expect(waits).toEqual(Array(9).fill([30, 30]));
        // One job per message, retried by pg-boss: 72 hours of 30 s retries.
        expect((await mailJobsOf(ctx.database, ids)).map((j) => [j.state, j.retryCount, j.retryLimit, j.retryDelay])).toEqual([
          ['retry', 8, 8640, 30],
          ['retry', 8, 8640, 30],
        ]);

        // A minute short of three days (the retries of 71 h 59 min spent): still retried, never given up.
        await ctx.database.exec(`UPDATE pgboss.job SET retry_count = retry_limit - 2 WHERE name = 'mail' AND (data->>'mailId')::int = ANY($1::int[])`, [ids]);
        await writtenMinutesAgo(session.id, 72 * 60 - 1);
        await mailJobsDueNow(ctx.database);
        expect(await worker.runOnce()).toBe(0);
        let rows = await outboxFor(ctx, session.id);
        expect(rows.map((r) => [r.status, r.attempts])).toEqual([
          ['pending', 10],
          ['pending', 10],
        ]);
        expect(rows[0].lastError).toMatch(/421/);
        expect((await statusOf(ctx, session)).emailStatus).toBe('pending');
        expect(smtpDown.received).toHaveLength(0);

        smtpDown.refuse(false);
        await mailJobsDueNow(ctx.database);
        expect(await worker.runOnce()).toBe(2);
        expect(smtpDown.received.map((r) => r.to[0]).sort()).toEqual(['office@school.test', 'outage@example.com']);
        rows = await outboxFor(ctx, session.id);
        expect(rows.map((r) => [r.status, r.attempts])).toEqual([
          ['sent', 11],
          ['sent', 11],
        ]);
        expect((await statusOf(ctx, session)).emailStatus).toBe('sent');
        // Delivered once: later passes and the jobs' end send nothing more.
        await mailJobsDueNow(ctx.database);
        expect(await worker.runOnce()).toBe(0);
        expect(smtpDown.received).toHaveLength(2);
        expect((await mailJobsOf(ctx.database, ids)).map((j) => j.state)).toEqual(['completed', 'completed']);
      } finally {
        await worker.stop();
        await smtpDown.close();
      }
    });

    it('marks a message failed only once it is older than the give-up age, logs that once without naming anyone, and never retries it', async () => {
      const smtpDown = await startSmtp();
      smtpDown.refuse(true);
      try {
        const { session } = await paidBooking(ctx, 53, { visitorEmail: 'never@example.com' });
        await onlyMailOf(session.id);
        const lines: Array<{ level: string; obj: object; msg: string }> = [];
        const logAt = (level: string) => (obj: object, msg: string) => void lines.push({ level, obj, msg });
        const log = { info: logAt('info'), warn: logAt('warn'), error: logAt('error') };
        const worker = mailQueueOf(ctx.database, smtpSender(smtpDown.url), { from: FROM, giveUpHours: 2, retrySeconds: 60, log });
        stops.push(worker.stop);

        // Queued (by a process retrying every minute, giving up after two hours) 119 minutes after it was written: one retry left.
        const ids = (await outboxFor(ctx, session.id)).map((r) => r.id);
        await ctx.database.exec(`DELETE FROM pgboss.job WHERE name = 'mail' AND (data->>'mailId')::int = ANY($1::int[])`, [ids]);
        await writtenMinutesAgo(session.id, 119);
        await worker.runOnce();
        expect((await outboxFor(ctx, session.id)).map((r) => r.status)).toEqual(['pending', 'pending']);
        expect(lines.filter((l) => l.level === 'error')).toHaveLength(0);

        await writtenMinutesAgo(session.id, 121);
        await mailJobsDueNow(ctx.database);
        await worker.runOnce();
        const rows = await outboxFor(ctx, session.id);
        // The jobs end failed (pg-boss's failed state), not retried again.
        expect((await mailJobsOf(ctx.database, rows.map((r) => r.id))).map((j) => j.state)).toEqual(['failed', 'failed']);
        expect(rows.map((r) => [r.status, r.attempts])).toEqual([
          ['failed', 2],
          ['failed', 2],
        ]);
        expect((await statusOf(ctx, session)).emailStatus).toBe('failed');
        // Never silently: /health counts the failed jobs and the given-up messages (listed on /staff/alerts, staff-alerts.test.ts).
        const health = (await ctx.app.inject('/health')).json().data;
        expect(health.jobs).toEqual({ failed: 2, failedByQueue: { mail: 2 } });
        expect(health.mail.stuck).toBeGreaterThanOrEqual(2);
        const errors = lines.filter((l) => l.level === 'error');
        const byMailId = (a: { mailId: number }, b: { mailId: number }) => a.mailId - b.mailId;
        expect(errors.map((l) => l.obj as { mailId: number }).sort(byMailId)).toEqual(
          rows.map((r) => ({ mailId: r.id, kind: r.kind, attempts: 2, ageMinutes: 121 })).sort(byMailId),
        );
        expect(errors[0].msg).toMatch(/GIVEN UP/);
        expect(JSON.stringify(errors)).not.toMatch(/never@example\.com|office@school\.test|Booking confirmed|Dear/);

        smtpDown.refuse(false);
        await mailJobsDueNow(ctx.database);
        expect(await worker.runOnce()).toBe(0);
        expect(smtpDown.received).toHaveLength(0);
      } finally {
        await smtpDown.close();
      }
    });

    it('by default writes each message as an .eml file with its .ics', async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-eml-'));
      try {
        const { session } = await paidBooking(ctx, 54, { visitorEmail: 'eml@example.com' });
        await ctx.database.db.update(mailOutbox).set({ status: 'sent' }).where(sql`${mailOutbox.paymentId} <> ${session.id}`);
        const worker = mailQueueOf(ctx.database, emlFileSender(folder), { from: FROM });
        stops.push(worker.stop);
        expect(await worker.runOnce()).toBe(2);
        const files = fs.readdirSync(folder).filter((f) => f.endsWith('.eml'));
        expect(files).toHaveLength(2);
        const parsed = await Promise.all(files.map((f) => simpleParser(fs.readFileSync(path.join(folder, f)))));
        const visitorMail = parsed.find((m) => m.to && !Array.isArray(m.to) && m.to.text.includes('eml@example.com'))!;
        expect(visitorMail.attachments[0].content.toString()).toContain('TZID=Asia/Singapore');
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });
  });
});

describe('MAIL_GIVE_UP_HOURS', () => {
  const base = { port: 4000, dataDir: '/tmp', adminEmail: 'a@b.c', supportEmail: 's@b.c', productName: 'X' };
  it('defaults to 72 hours, takes a whole number of hours and refuses less than one', () => {
    expect(loadPaymentsConfig({}, base).mailGiveUpHours).toBe(72);
    expect(loadPaymentsConfig({ MAIL_GIVE_UP_HOURS: '96' }, base).mailGiveUpHours).toBe(96);
    expect(() => loadPaymentsConfig({ MAIL_GIVE_UP_HOURS: '0' }, base)).toThrow(/MAIL_GIVE_UP_HOURS must be at least 1/);
    expect(() => loadPaymentsConfig({ MAIL_GIVE_UP_HOURS: 'soon' }, base)).toThrow(/MAIL_GIVE_UP_HOURS must be a whole number/);
  });
});

describe.each<Driver>(['postgres'])('two mail workers on %s', (driver) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ctx: PayCtx;
  beforeAll(async () => {
    smtp = await startSmtp();
    ctx = await startPaymentsApp(driver, { sandboxCallbackDrop: true, smtpUrl: smtp.url, mailFrom: FROM });
    await ctx.app.jobs.stopWorking('mail');
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('send each message exactly once (one job per message, fetched once by pg-boss)', async () => {
    for (let i = 0; i < 6; i++) await paidBooking(ctx, 60 + i, { visitorEmail: `p${i}@example.com` });
    const workers = [0, 1, 2].map(() => mailQueueOf(ctx.database, smtpSender(smtp.url), { from: FROM }));
    const sent = await Promise.all(workers.map((w) => w.runOnce()));
    await Promise.all(workers.map((w) => w.stop()));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(12);
    expect(smtp.received).toHaveLength(12);
    expect(new Set(smtp.received.map((r) => r.mail.messageId)).size).toBe(12);
  });
});
