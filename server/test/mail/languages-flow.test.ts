jest.setTimeout(120_000);
// A parent who books in Bahasa Melayu or Chinese gets every mail in that language (issue 14), through the real path:
// initiate (with the page's language) → pay → the outbox → an .eml file; reminders and cancellations read the
// language stored with the booking. On PGlite and on PostgreSQL (migration 0012 on both).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { reminderTime, runReminders } from '../../src/manage/reminders';
import { emlFileSender } from '../../src/mail/transport';
import { mailOutbox } from '../../src/mail/tables';
import { payments } from '../../src/payments/tables';
import { sandboxSessions } from '../../src/payments/gateways/tables';
import { cancel, tokenIn } from '../bookings/support';
import { queryRows } from '../helpers';
import { mailQueueOf } from './support';
import { initiate, initiateBody, initiateOk, insertSlot, markSandboxPaid, postSandboxCallback, reserve, startPaymentsApp, type Driver, type PayCtx } from '../payments/support';

const FROM = '"Seri Ilmu" <admissions@seriilmu.edu.my>';

describe.each<Driver>(['pglite', 'postgres'])('mails in the parent’s language on %s', (driver) => {
  let ctx: PayCtx;
  let folder: string;
  let worker: ReturnType<typeof mailQueueOf>;

  beforeAll(async () => {
    ctx = await startPaymentsApp(driver, { sandboxCallbackDrop: true, mailFrom: FROM, adminNotifyEmail: 'office@school.test' });
    // This file's own worker writes .eml files, as the default transport does.
    await ctx.app.jobs.stopWorking('mail');
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-languages-'));
    worker = mailQueueOf(ctx.database, emlFileSender(folder), { from: FROM });
  });
  afterAll(async () => {
    await worker?.stop();
    await ctx?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  /** Sends the outbox and returns the new .eml files, parsed, by recipient. */
  const seen = new Set<string>();
  async function sendAndRead(): Promise<{ to: string; mail: ParsedMail; raw: string }[]> {
    await worker.runOnce();
    const fresh = fs.readdirSync(folder).filter((f) => f.endsWith('.eml') && !seen.has(f));
    fresh.forEach((f) => seen.add(f));
    return Promise.all(
      fresh.map(async (f) => {
        const raw = fs.readFileSync(path.join(folder, f), 'utf8');
        const mail = await simpleParser(raw);
        return { to: (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.text, mail, raw };
      }),
    );
  }

  /** A parent books and pays through the real path, in `locale` (none: an older page that sends no language). */
  async function paidBooking(hoursAhead: number, email: string, locale?: string) {
    const slot = await insertSlot(ctx.database, hoursAhead);
    const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: email, ...(locale ? { locale } : {}) }));
    await markSandboxPaid(ctx, sandboxId);
    const res = await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
    if (res.status !== 200) throw new Error(`callback refused: ${res.status}`);
    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.id, session.id));
    return { slot, payment };
  }

  it('migration 0012: payments.locale defaults to English and takes only en, ms or zh; outbox rows may name no language', async () => {
    const columns = await queryRows<{ table_name: string; is_nullable: string; column_default: string | null }>(
      ctx.database,
      sql`SELECT table_name, is_nullable, column_default FROM information_schema.columns WHERE column_name = 'locale' AND table_name IN ('payments', 'mail_outbox') ORDER BY table_name`,
    );
    expect(columns).toEqual([
      { table_name: 'mail_outbox', is_nullable: 'YES', column_default: null },
      { table_name: 'payments', is_nullable: 'NO', column_default: "'en'::text" },
    ]);
    const { payment } = await paidBooking(30, 'check@example.com');
    expect(payment.locale).toBe('en');
    // The database's own refusal (the driver's error is the query error's cause).
    const refusal = (query: ReturnType<typeof sql>) =>
      ctx.database.db.execute(query).then(
        () => 'accepted',
        (err: { cause?: { message?: string } }) => err.cause?.message ?? String(err),
      );
    expect(await refusal(sql`UPDATE payments SET locale = 'fr' WHERE id = ${payment.id}`)).toMatch(/payments_locale_check/);
    expect(await refusal(sql`UPDATE mail_outbox SET locale = 'de' WHERE payment_id = ${payment.id}`)).toMatch(/mail_outbox_locale_check/);
    await sendAndRead();
  });

  it('a booking made in Malay: the confirmation .eml is in Malay with Content-Language: ms; the admin’s stays English', async () => {
    const { payment } = await paidBooking(31, 'melayu@example.com', 'ms');
    expect(payment.locale).toBe('ms');
    const mails = await sendAndRead();
    const parent = mails.find((m) => m.to === 'melayu@example.com')!;
    const admin = mails.find((m) => m.to === 'office@school.test')!;
    expect(parent.mail.subject).toMatch(/^Tempahan disahkan: Sekolah Menengah Swasta Seri Ilmu, (Ahad|Isnin|Selasa|Rabu|Khamis|Jumaat|Sabtu), \d+ \S+ \d{4} pukul \d+:\d\d (pagi|tengah hari|petang|malam) \(GMT\+8\)$/);
    expect(parent.mail.headers.get('content-language')).toBe('ms');
    expect(parent.mail.text).toContain('Salam sejahtera Nur Aina,');
    expect(parent.mail.text).toContain('Lawatan penilaian anda telah disahkan dan bayaran anda telah diterima.');
    expect(parent.mail.text).toContain('Jumlah dibayar: RM75');
    // 31 hours ahead: past the full-refund time (48 h), before the cut-off (24 h). Around noon the time says "tengah hari".
    expect(parent.mail.text).toMatch(/\nTiada bayaran balik jika anda membatalkan; perubahan boleh dibuat sehingga \S+, \d+ \S+ \d{4}, \d+:\d\d (pagi|tengah hari|petang|malam) \(GMT\+8\)\.\n/);
    expect(parent.mail.html).toContain('<html lang="ms">');
    // The gateway's checkout page names the visit in Malay too.
    const [checkout] = await ctx.database.db.select().from(sandboxSessions).where(eq(sandboxSessions.id, payment.gatewaySessionId!));
    expect(checkout.description).toMatch(/^Lawatan penilaian: Sekolah Menengah Swasta Seri Ilmu, (Ahad|Isnin|Selasa|Rabu|Khamis|Jumaat|Sabtu), \d+ \S+ \d{4}, \d+:\d\d \S+( \S+)? \(GMT\+8\)$/);
    const ics = parent.mail.attachments[0].content.toString().replace(/\r\n /g, '');
    expect(ics).toContain('SUMMARY:Lawatan penilaian: Sekolah Menengah Swasta Seri Ilmu');
    expect(admin.mail.subject).toMatch(/^New booking: Nur Aina, Seri Ilmu Private Secondary, /);
    expect(admin.mail.headers.has('content-language')).toBe(false);
    expect(admin.raw).not.toMatch(/^Content-Language:/im);
  });

  it('cancelling the Malay booking from the mail’s manage link: the cancellation is in Malay too', async () => {
    const { payment } = await paidBooking(80, 'batal@example.com', 'ms');
    const [confirmation] = (await sendAndRead()).filter((m) => m.to === 'batal@example.com');
    const res = await cancel(ctx, tokenIn(confirmation.mail.text!), 7500);
    expect(res.statusCode).toBe(200);
    const [cancelled] = (await sendAndRead()).filter((m) => m.to === 'batal@example.com');
    expect(cancelled.mail.subject).toMatch(/^Tempahan dibatalkan: Sekolah Menengah Swasta Seri Ilmu, /);
    expect(cancelled.mail.text).toContain('Lawatan penilaian anda telah dibatalkan seperti yang anda minta.');
    expect(cancelled.mail.text).toContain('Bayaran balik sebanyak RM75 sedang dibuat');
    expect(cancelled.mail.headers.get('content-language')).toBe('ms');
    // Sent by the product (no auto-replies), and threaded under the confirmation in the parent's mail program.
    expect([confirmation.mail.headers.get('auto-submitted'), cancelled.mail.headers.get('auto-submitted')]).toEqual(['auto-generated', 'auto-generated']);
    expect(confirmation.mail.inReplyTo).toBeUndefined();
    expect(cancelled.mail.inReplyTo).toBe(confirmation.mail.messageId);
    expect(cancelled.mail.references).toBe(confirmation.mail.messageId);
    const rows = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.paymentId, payment.id));
    expect(rows.map((r) => [r.kind, r.locale]).sort()).toEqual([
      ['admin_cancelled', null],
      ['admin_notification', null],
      ['visitor_cancelled', 'ms'],
      ['visitor_confirmation', 'ms'],
    ]);
  });

  it('a booking made in Chinese: its day-before reminder is in Chinese, Content-Language: zh-Hans', async () => {
    const { slot, payment } = await paidBooking(24 * 6, 'zhongwen@example.com', 'zh');
    expect(payment.locale).toBe('zh');
    const [confirmation] = (await sendAndRead()).filter((m) => m.to === 'zhongwen@example.com');
    expect(confirmation.mail.subject).toMatch(/^预约已确认：Seri Ilmu 私立中学，\d{4}年\d+月\d+日 星期. (上午|下午)\d+:\d\d（GMT\+8）$/);
    expect(confirmation.mail.text).toMatch(/前取消可获全额退款；此后取消不予退款；.*前可改期或取消。/);
    const [checkout] = await ctx.database.db.select().from(sandboxSessions).where(eq(sandboxSessions.id, payment.gatewaySessionId!));
    expect(checkout.description).toMatch(/^入学评估：Seri Ilmu 私立中学，\d{4}年\d+月\d+日 星期. (上午|下午)\d+:\d\d（GMT\+8）$/);
    const queued = await runReminders(ctx.database.db, { now: reminderTime(slot.startAt), publicSiteUrl: 'http://site.test', mailFrom: FROM });
    expect(queued).toBeGreaterThanOrEqual(1);
    const reminder = (await sendAndRead()).find((m) => m.to === 'zhongwen@example.com')!;
    expect(reminder.mail.subject).toMatch(/^提醒：入学评估就在明天，\d{4}年\d+月\d+日 星期. (上午|下午)\d+:\d\d（GMT\+8）$/);
    expect(reminder.mail.text).toContain('温馨提醒：您的入学评估就在明天。');
    // Nothing uploaded yet (issue 40): every document is still to upload or bring.
    expect(reminder.mail.text).toContain('尚未上传、需携带的文件：\n- 家长/监护人身份证件');
    expect(reminder.mail.headers.get('content-language')).toBe('zh-Hans');
    expect(reminder.mail.html).toContain('<html lang="zh-Hans">');
  });

  it('a booking from a page that sends no language is English, and says so', async () => {
    await paidBooking(33, 'english@example.com');
    const [parent] = (await sendAndRead()).filter((m) => m.to === 'english@example.com');
    expect(parent.mail.subject).toMatch(/^Booking confirmed: Seri Ilmu Private Secondary, /);
    expect(parent.mail.headers.get('content-language')).toBe('en');
    expect(parent.mail.text).toMatch(/\nNo refund if you cancel; changes until \w+ \d+ \w+ \d{4}, \d+:\d\d (AM|PM) \(GMT\+8\)\.\n/);
  });

  it('a parent who switches language and pays again with the same hold keeps the payment, in the new language', async () => {
    const slot = await insertSlot(ctx.database, 35);
    const email = 'switch@example.com';
    const holdToken = await reserve(ctx, slot.id, email);
    const first = await initiate(ctx, initiateBody(slot, { visitorEmail: email, holdToken, locale: 'en' }));
    const again = await initiate(ctx, initiateBody(slot, { visitorEmail: email, holdToken, locale: 'zh' }));
    const id = first.json().data.paymentSession.id as string;
    expect(again.json().data.paymentSession.id).toBe(id);
    const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, id));
    expect(row.locale).toBe('zh');
  });

  it('refuses a language it does not speak', async () => {
    const slot = await insertSlot(ctx.database, 34);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/payment/initiate', payload: initiateBody(slot, { visitorEmail: 'fr@example.com', locale: 'fr' }) });
    expect(res.statusCode).toBe(400);
  });
});
