import { and, eq } from 'drizzle-orm';
import { auditLog } from '../../src/audit/table';
import { createUser } from '../../src/auth/accounts';
import { privacyNotice } from 'shared-api/privacy';
import { escapeHtml, mailOutbox } from '../../src/mail';
import { slots } from '../../src/slots';
import { auth, STAFF, enrolSecondFactor } from '../helpers';
import { initiateBody, initiateOk, markSandboxPaid, postSandboxCallback, slotRow, startPaymentsApp, waitFor, type PayCtx } from '../payments/support';

// PDPA access: the look-up reads the person (each booking with its school, GMT+8 time and state), and the export for
// the parent is a plain page: Malaysia's times, ringgit, each message's subject and date but never its body, audited as
// the other exports are, and only for an admin who gave the second factor.
jest.setTimeout(90_000);

const MEI_LING = { visitorName: 'Tan Mei Ling', visitorEmail: 'meiling@example.com', visitorContactNo: '0123456789', childName: 'Tan Xiao Ming', childYear: 'Form 1' };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A weekday at least `days` ahead of today, as YYYY-MM-DD (GMT+8: the visit days are Malaysia's). */
const weekdayAhead = (days: number) => {
  const d = new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};
/** '23 Nov 2026' for a YYYY-MM-DD day. */
const dayLabel = (day: string) => `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;

describe('the person read for staff, and the export for the parent', () => {
  let ctx: PayCtx;
  let token: string;
  const day = weekdayAhead(5);
  const references: string[] = [];
  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
    await createUser(ctx.database.db, STAFF);
    token = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF })).json().data.token as string;
    await enrolSecondFactor(ctx, token);
    // 9:00 AM and 2:30 PM in Malaysia: 01:00 and 06:30 UTC.
    for (const utc of ['01:00', '06:30']) {
      const startAt = new Date(`${day}T${utc}:00Z`);
      const [slot] = await ctx.database.db.insert(slots).values({ startAt, endAt: new Date(startAt.getTime() + 30 * 60_000) }).returning();
      const { payment, sandboxId } = await initiateOk(ctx, initiateBody(slot, MEI_LING));
      await markSandboxPaid(ctx, sandboxId);
      await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
      await waitFor(async () => (await slotRow(ctx, slot.id)).status === 'booked');
      references.push(payment.reference);
    }
    // The morning visit is cancelled by the school, nothing refunded: its slot is free again, the booking stays hers.
    const cancelled = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${references[0]}/cancel`, headers: auth(token), payload: { refund: false } });
    expect(cancelled.statusCode).toBe(200);
  });
  afterAll(() => ctx?.close());

  it('the look-up reads the person: names, contacts, child, each booking with school, time and state, consents and mails', async () => {
    const res = await ctx.app.inject({ url: '/staff/privacy/person?email=meiling@example.com', headers: auth(token) });
    expect(res.statusCode).toBe(200);
    const { summary, bookings } = res.json().data;
    // The cancelled visit's slot is free again: only the paid visit's slot names her, yet both bookings are hers.
    expect(bookings.map((b: { bookingReference: string }) => b.bookingReference)).toEqual([references[1]]);
    expect(summary).toMatchObject({ names: ['Tan Mei Ling'], emails: ['meiling@example.com'], phones: ['0123456789'], children: [{ name: 'Tan Xiao Ming', year: 'Form 1' }] });
    expect(summary.bookings.map((b: { reference: string; school: string; start: string; state: string; amountSen: number }) => [b.reference, b.school, b.start, b.state, b.amountSen])).toEqual([
      [references[0], 'Seri Ilmu Private Secondary', `${day}T01:00:00.000Z`, 'cancelled', 7500],
      [references[1], 'Seri Ilmu Private Secondary', `${day}T06:30:00.000Z`, 'paid', 7500],
    ]);
    expect(summary.bookings[0].cancelledAt).toEqual(expect.any(String));
    expect(summary.consents).toHaveLength(2);
    expect(summary.consents[0]).toEqual({ noticeVersion: expect.any(String), language: 'en', channel: 'web', givenAt: expect.any(String) });
    expect(summary.mails.length).toBeGreaterThanOrEqual(3);
    for (const mail of summary.mails) expect(Object.keys(mail).sort()).toEqual(['createdAt', 'recipient', 'sentAt', 'status', 'subject']);
  });

  it('the export for the parent: a printable page with GMT+8 times, ringgit, states, consents, and subjects without bodies; audited', async () => {
    const res = await ctx.app.inject({ url: '/staff/privacy/person/export?email=meiling@example.com&format=html', headers: auth(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="person-meiling@example.com.html"');
    expect(res.headers['cache-control']).toBe('no-store');
    const page = res.body;
    const text = page.replace(/<[^>]+>/g, '|');
    expect(text).toContain('Tan Mei Ling');
    expect(text).toContain('012-345 6789');
    expect(text).toContain('Tan Xiao Ming (Form 1)');
    // Each booking's row: reference, school, child, day, time in Malaysia, amount in ringgit, state.
    const row = (reference: string) => page.match(new RegExp(`<tr><td>${reference}</td>(.*?)</tr>`))![1].replace(/<\/?td>/g, '|').split('|').filter(Boolean);
    expect(row(references[0])).toEqual(['Seri Ilmu Private Secondary', 'Tan Xiao Ming', dayLabel(day), '9:00 AM – 9:30 AM', 'RM 75', expect.stringMatching(/^Cancelled on \d{1,2} [A-Z][a-z]{2} \d{4}$/)]);
    expect(row(references[1])).toEqual(['Seri Ilmu Private Secondary', 'Tan Xiao Ming', dayLabel(day), '2:30 PM – 3:00 PM', 'RM 75', 'Paid']);
    expect(page).not.toMatch(/\d{4}-\d{2}-\d{2}T/); // no UTC instants
    expect(page).not.toContain('7500');
    expect(text).toMatch(/\|Version [^|]+\|\|English\|\|\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [AP]M\|/);
    // The notice agreed to, whole, once: what the parent consented to.
    expect(page.match(/<h3>The privacy notice you agreed to: version [^,]+, English<\/h3>/g)).toHaveLength(1);
    expect(page).toContain(escapeHtml(privacyNotice.texts.en.sections[0].body));
    // Each message by its subject, never its body (the manage link in it stays out).
    const mails = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, MEI_LING.visitorEmail));
    expect(mails.length).toBeGreaterThanOrEqual(2);
    for (const mail of mails) {
      expect(page).toContain(mail.subject.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
      for (const link of mail.textBody.match(/https?:\/\/\S+/g) ?? []) expect(page).not.toContain(link);
    }
    expect(page).not.toContain('<a ');
    expect(page.match(/<html/g)).toHaveLength(1);

    const audited = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'privacy_person_exported'), eq(auditLog.target, MEI_LING.visitorEmail)));
    expect(audited.map((a) => [a.actor, (a.detail as { format: string }).format])).toEqual([[STAFF.email, 'html']]);
  });

  it('is refused to an admin who has not given the second factor (403), and to nobody signed in (401)', async () => {
    const other = { email: 'second-admin@example.com', password: 'another-horse-battery' };
    await createUser(ctx.database.db, { ...other, role: 'admin' });
    const second = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: other })).json().data.token as string;
    for (const url of ['/staff/privacy/person/export?email=meiling@example.com&format=html', '/staff/privacy/person?email=meiling@example.com']) {
      expect([url, (await ctx.app.inject({ url, headers: auth(second) })).statusCode]).toEqual([url, 403]);
      expect([url, (await ctx.app.inject({ url })).statusCode]).toEqual([url, 401]);
    }
    const audited = await ctx.database.db.select().from(auditLog).where(eq(auditLog.actor, other.email));
    expect(audited.filter((a) => a.action.startsWith('privacy_person'))).toEqual([]);
  });
});
