jest.setTimeout(60_000);
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { brand, inMY } from 'shared-api/contract';
import { MailWorker } from '../../src/mail/worker';
import { emlFileSender, smtpSender } from '../../src/mail/transport';
import { mailOutbox } from '../../src/payments/tables';
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

type Received = { mail: ParsedMail; to: string[] };

/** A real SMTP server on an ephemeral (or given) port that parses every message it accepts. */
async function startSmtp(port = 0) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ mail, to: session.envelope.rcptTo.map((r) => r.address) });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const address = server.server.address() as AddressInfo;
  return { received, url: `smtp://127.0.0.1:${address.port}`, port: address.port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

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

const statusOf = async (ctx: PayCtx, id: string) => (await ctx.app.inject(`/api/payment/status/${id}`)).json().data;

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
    const { slot, session } = await paidBooking(ctx, 50, { visitorName: XSS_NAME, visitorEmail: 'parent@example.com' });
    await waitFor(async () => smtp.received.length >= 2);
    await new Promise((r) => setTimeout(r, 200));
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
    expect(a.text).toContain('Contact number: 0123456789');
    expect(a.text).toContain(`Payment reference: ${session.clientReference}`);
    expect(a.html as string).not.toMatch(/<img/i);
    expect(a.html as string).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(a.attachments).toHaveLength(0);

    const data = await statusOf(ctx, session.id);
    expect(data.emailStatus).toBe('sent');
    expect(data.emailTimeouts).toEqual({ visitorEmailTimeout: false, adminEmailTimeout: false });

    // Another pass sends nothing again.
    await ctx.app.mailWorker.runOnce();
    expect(smtp.received).toHaveLength(2);
    expect((await outboxFor(ctx, session.id)).map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  describe('with the app’s own worker stopped (explicit workers below)', () => {
    beforeAll(() => ctx.app.mailWorker.stop());

    it('keeps the mail when SMTP is down and sends it once SMTP is back', async () => {
      const port = await freePort();
      const { session } = await paidBooking(ctx, 51, { visitorEmail: 'down@example.com' });
      const downWorker = new MailWorker({ db: ctx.database.db, sender: smtpSender(`smtp://127.0.0.1:${port}`), from: FROM, pollMs: 1000 });
      expect(await downWorker.runOnce()).toBe(0);
      let rows = await outboxFor(ctx, session.id);
      expect(rows.map((r) => r.status)).toEqual(['pending', 'pending']);
      expect(rows.every((r) => r.attempts === 1 && r.lastError && r.nextAttemptAt > new Date())).toBe(true);
      expect((await statusOf(ctx, session.id)).emailStatus).toBe('pending');

      // Not due yet: a pass before the backoff sends nothing.
      const back = await startSmtp(port);
      try {
        const upWorker = new MailWorker({ db: ctx.database.db, sender: smtpSender(back.url), from: FROM, pollMs: 1000 });
        expect(await upWorker.runOnce()).toBe(0);
        await ctx.database.db.update(mailOutbox).set({ nextAttemptAt: sql`now()` }).where(eq(mailOutbox.paymentId, session.id));
        expect(await upWorker.runOnce()).toBe(2);
        expect(back.received.map((r) => r.to[0]).sort()).toEqual(['down@example.com', 'office@school.test']);
        rows = await outboxFor(ctx, session.id);
        expect(rows.map((r) => [r.status, r.attempts])).toEqual([
          ['sent', 2],
          ['sent', 2],
        ]);
        expect((await statusOf(ctx, session.id)).emailStatus).toBe('sent');
      } finally {
        await back.close();
      }
    });

    it('reports a timeout (emailStatus timeout, both flags) when SMTP accepts but never answers', async () => {
      const silent = net.createServer(() => {});
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
      try {
        const { session } = await paidBooking(ctx, 52, { visitorEmail: 'slow@example.com' });
        const url = `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`;
        const worker = new MailWorker({
          db: ctx.database.db,
          sender: smtpSender(url, { connectionTimeoutMs: 300, greetingTimeoutMs: 300, socketTimeoutMs: 300 }),
          from: FROM,
          pollMs: 1000,
        });
        await worker.runOnce();
        const data = await statusOf(ctx, session.id);
        expect(data.emailStatus).toBe('timeout');
        expect(data.emailTimeouts).toEqual({ visitorEmailTimeout: true, adminEmailTimeout: true });
      } finally {
        await new Promise<void>((r) => silent.close(() => r()));
      }
    });

    it('gives up after the last attempt: emailStatus failed', async () => {
      const port = await freePort();
      const { session } = await paidBooking(ctx, 53, { visitorEmail: 'never@example.com' });
      const worker = new MailWorker({ db: ctx.database.db, sender: smtpSender(`smtp://127.0.0.1:${port}`), from: FROM, pollMs: 1000, maxAttempts: 2, backoffMs: 0 });
      await worker.runOnce();
      await worker.runOnce();
      expect((await outboxFor(ctx, session.id)).map((r) => r.status)).toEqual(['failed', 'failed']);
      expect((await statusOf(ctx, session.id)).emailStatus).toBe('failed');
    });

    it('by default writes each message as an .eml file with its .ics', async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-eml-'));
      try {
        const { session } = await paidBooking(ctx, 54, { visitorEmail: 'eml@example.com' });
        await ctx.database.db.update(mailOutbox).set({ status: 'sent' }).where(sql`${mailOutbox.paymentId} <> ${session.id}`);
        const worker = new MailWorker({ db: ctx.database.db, sender: emlFileSender(folder), from: FROM, pollMs: 1000 });
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

describe.each<Driver>(['postgres'])('two mail workers on %s', (driver) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ctx: PayCtx;
  beforeAll(async () => {
    smtp = await startSmtp();
    ctx = await startPaymentsApp(driver, { sandboxCallbackDrop: true, smtpUrl: smtp.url, mailFrom: FROM });
    await ctx.app.mailWorker.stop();
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('send each message exactly once (claims with FOR UPDATE SKIP LOCKED)', async () => {
    for (let i = 0; i < 6; i++) await paidBooking(ctx, 60 + i, { visitorEmail: `p${i}@example.com` });
    const workers = [0, 1, 2].map(() => new MailWorker({ db: ctx.database.db, sender: smtpSender(smtp.url), from: FROM, pollMs: 1000 }));
    const sent = await Promise.all(workers.map((w) => w.runOnce()));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(12);
    expect(smtp.received).toHaveLength(12);
    expect(new Set(smtp.received.map((r) => r.mail.messageId)).size).toBe(12);
  });
});
