jest.setTimeout(60_000);
import { eq } from 'drizzle-orm';
import { buildInvitation } from 'shared-api/contract';
import type { MailSender, OutgoingMail } from '../../src/mail/transport';
import { loadPaymentsConfig } from '../../src/payments/config';
import { mailOutbox } from '../../src/mail/tables';
import { initiateBody, initiateOk, insertSlot, markSandboxPaid, postSandboxCallback, startPaymentsApp, type PayCtx } from '../payments/support';
import { mailJobsDueNow, mailQueueOf } from './support';

describe('calendar invitation text', () => {
  it('escapes commas, semicolons and newlines, quotes the attendee name and folds long lines at 75 octets', () => {
    const start = new Date('2026-11-23T01:30:00Z');
    const ics = buildInvitation({
      uid: 'PAY-1@seriilmu.edu.my',
      start,
      end: new Date(start.getTime() + 30 * 60_000),
      school: 'Seri Ilmu International',
      visitorName: 'Tan, Wei; "Ming"\nEvil:PROP',
      visitorEmail: 'tan@example.com',
      reference: 'PAY-1',
      organizerEmail: 'admissions@seriilmu.edu.my',
      now: new Date('2026-11-22T00:00:00Z'),
    });
    expect(ics.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded).toContain('DTSTART;TZID=Asia/Singapore:20261123T093000');
    expect(unfolded).toContain('DTEND;TZID=Asia/Singapore:20261123T100000');
    expect(unfolded).toContain('ATTENDEE;CN="Tan, Wei; MingEvil:PROP";');
    expect(unfolded).toContain('Assessment visit for Tan\\, Wei\\; "Ming"\\nEvil:PROP.');
    // No visitor text starts a property line of its own.
    expect(unfolded.split('\r\n').filter((l) => l.startsWith('Evil'))).toHaveLength(0);
  });
});

describe('gateway configuration', () => {
  it('refuses an unknown gateway name and chip without its keys', () => {
    const base = { port: 4000, dataDir: '/tmp', adminEmail: 'a@b.c', supportEmail: 's@b.c', productName: 'X' };
    expect(() => loadPaymentsConfig({ PAYMENT_GATEWAY: 'paypal' }, base)).toThrow(/sandbox or chip/);
    expect(() => loadPaymentsConfig({ PAYMENT_GATEWAY: 'chip' }, base)).toThrow(/CHIP_BRAND_ID/);
  });
});

describe('a worker that died while sending', () => {
  let ctx: PayCtx;
  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite', { sandboxCallbackDrop: true });
    await ctx.app.jobs.stopWorking('mail');
  });
  afterAll(() => ctx?.close());

  it('leaves its running jobs to be sent by the next worker once pg-boss expires them', async () => {
    const slot = await insertSlot(ctx.database, 40);
    const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot));
    await markSandboxPaid(ctx, sandboxId);
    await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
    // As if a worker had fetched both jobs, marked both messages sending, and then its process died.
    const dead = mailQueueOf(ctx.database, { describe: 'dead', send: () => new Promise<void>(() => {}), close: () => {} });
    await dead.queue.enqueuePending();
    const fetched = await dead.jobs.boss.fetch('mail', { batchSize: 10 });
    expect(fetched).toHaveLength(2);
    await ctx.database.db.update(mailOutbox).set({ status: 'sending', attempts: 1 }).where(eq(mailOutbox.paymentId, session.id));
    await dead.stop();
    const sent: OutgoingMail[] = [];
    const sender: MailSender = { describe: 'memory', send: async (m) => void sent.push(m), close: () => {} };
    const worker = mailQueueOf(ctx.database, sender);
    try {
      expect(await worker.runOnce()).toBe(0);
      // Past the jobs' expiry (2 minutes), pg-boss's maintenance fails them back for a retry, due after the retry delay.
      await ctx.database.exec(`UPDATE pgboss.job SET started_on = now() - interval '121 seconds' WHERE name = 'mail' AND state = 'active'`);
      await worker.jobs.boss.expire();
      expect(await worker.runOnce()).toBe(0);
      await mailJobsDueNow(ctx.database);
      expect(await worker.runOnce()).toBe(2);
    } finally {
      await worker.stop();
    }
    expect(sent.map((m) => m.messageId).sort()).toEqual([`<${session.clientReference}.admin@seriilmu.edu.my>`, `<${session.clientReference}.visitor@seriilmu.edu.my>`]);
  });
});
