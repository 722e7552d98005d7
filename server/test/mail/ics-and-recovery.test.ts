jest.setTimeout(60_000);
import { eq, sql } from 'drizzle-orm';
import { buildInvitation } from 'shared-api/contract';
import { MailWorker } from '../../src/mail/worker';
import type { MailSender, OutgoingMail } from '../../src/mail/transport';
import { loadPaymentsConfig } from '../../src/payments/config';
import { mailOutbox } from '../../src/payments/tables';
import { initiateBody, initiateOk, insertSlot, markSandboxPaid, postSandboxCallback, startPaymentsApp, type PayCtx } from '../payments/support';

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
    await ctx.app.mailWorker.stop();
  });
  afterAll(() => ctx?.close());

  it('leaves its claimed messages to be sent by the next worker once the claim runs out', async () => {
    const slot = await insertSlot(ctx.database, 40);
    const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot));
    await markSandboxPaid(ctx, sandboxId);
    await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
    // As if a worker had claimed both and then the process died.
    await ctx.database.db.update(mailOutbox).set({ status: 'sending', attempts: 1, claimedUntil: sql`now() + interval '2 minutes'` }).where(eq(mailOutbox.paymentId, session.id));
    const sent: OutgoingMail[] = [];
    const sender: MailSender = { describe: 'memory', send: async (m) => void sent.push(m), close: () => {} };
    const worker = new MailWorker({ db: ctx.database.db, sender, from: 'x@y.z', pollMs: 1000 });
    expect(await worker.runOnce()).toBe(0);
    await ctx.database.db.update(mailOutbox).set({ claimedUntil: sql`now() - interval '1 second'` }).where(eq(mailOutbox.paymentId, session.id));
    expect(await worker.runOnce()).toBe(2);
    expect(sent.map((m) => m.messageId).sort()).toEqual([`<${session.clientReference}.admin@seriilmu.edu.my>`, `<${session.clientReference}.visitor@seriilmu.edu.my>`]);
  });
});
