import { and, eq } from 'drizzle-orm';
import { auditLog } from '../../src/audit/table';
import { createUser } from '../../src/auth/accounts';
import { auth, STAFF, enrolSecondFactor } from '../helpers';
import { initiateBody, initiateOk, insertSlot, markSandboxPaid, postSandboxCallback, slotRow, startPaymentsApp, waitFor, type PayCtx } from '../payments/support';
import { noticeText, privacyNotice } from 'shared-api/privacy';

// Issue 28 (PDPA access and portability): staff find every record of one person by email or phone and export it; two
// parents with similar data, and the export holds everything of one and nothing of the other. Every access is audited.
jest.setTimeout(90_000);

const AISYAH = { visitorName: 'Aisyah Rahman', visitorEmail: 'aisyah@example.com', visitorContactNo: '0123456781', childName: 'Nur Iman' };
// Similar on purpose: the address contains Aisyah's, the name and phone differ by one character.
const NAISYAH = { visitorName: 'Aisyah Rahmat', visitorEmail: 'naisyah@example.com', visitorContactNo: '0123456782', childName: 'Nur Imam' };

describe('a person\u2019s data for staff', () => {
  let ctx: PayCtx;
  let token: string;
  const references: Record<string, string> = {};
  const paymentIds: Record<string, string> = {};
  let deskReference = '';
  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
    await createUser(ctx.database.db, STAFF);
    token = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF })).json().data.token as string;
    await enrolSecondFactor(ctx, token);
    let hours = 60;
    for (const parent of [AISYAH, NAISYAH]) {
      const slot = await insertSlot(ctx.database, hours++);
      const { payment, sandboxId } = await initiateOk(ctx, initiateBody(slot, parent));
      await markSandboxPaid(ctx, sandboxId);
      await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
      await waitFor(async () => (await slotRow(ctx, slot.id)).status === 'booked');
      references[parent.visitorEmail] = payment.reference;
      paymentIds[parent.visitorEmail] = payment.id;
      // A staff action naming the booking: in the person's audit entries.
      await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${payment.reference}/cancel`, headers: auth(token), payload: { refund: false } });
    }
    // Aisyah books again at the desk: a staff direct booking (its slot carries her details and a 'staff' consent).
    const desk = await insertSlot(ctx.database, hours++);
    const direct = { ...AISYAH, selectedSchool: 'Seri Ilmu Private Secondary', childYear: 'Form 2' };
    expect((await ctx.app.inject({ method: 'PUT', url: `/slot/${desk.id}`, headers: auth(token), payload: direct })).statusCode).toBe(200);
    deskReference = (await slotRow(ctx, desk.id)).bookingReference!;
  });
  afterAll(() => ctx?.close());

  const everyText = (value: unknown) => JSON.stringify(value);
  /** RFC 4180 as a spreadsheet reads it: quoted cells may hold commas, quotes ("") and line breaks. */
  const parseCsv = (text: string): string[][] => {
    const rows: string[][] = [];
    let row: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (c === '"') quoted = false;
        else cell += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') {
        row.push(cell);
        cell = '';
      } else if (c === '\r' && text[i + 1] === '\n') {
        row.push(cell);
        rows.push(row);
        row = [];
        cell = '';
        i++;
      } else cell += c;
    }
    return rows;
  };

  it('finds by email every booking, payment, consent, mail and audit entry of the person, and nothing of the other', async () => {
    const res = await ctx.app.inject({ url: '/staff/privacy/person?email=Aisyah@Example.com', headers: auth(token) });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.person).toEqual({ email: 'aisyah@example.com', phone: null });
    expect(data.payments.map((p: { id: string }) => p.id)).toEqual([paymentIds['aisyah@example.com']]);
    expect(data.bookings.map((b: { bookingReference: string }) => b.bookingReference)).toEqual([deskReference]);
    expect(data.consents.map((c: { channel: string }) => c.channel)).toEqual(['web', 'staff']);
    // Each with the notice it names, as the parent read it.
    expect(data.consents[0].noticeText).toBe(noticeText(data.consents[0].noticeVersion, data.consents[0].language));
    expect(data.consents[0].noticeText).toContain(privacyNotice.texts[data.consents[0].language as 'en'].sections[0].body);
    // Confirmation to the parent, the school's copy (about her payment), and the cancel mails.
    expect(data.mails.length).toBeGreaterThanOrEqual(2);
    expect(data.mails.every((m: { recipient: string; paymentId: string }) => m.recipient === 'aisyah@example.com' || m.paymentId === paymentIds['aisyah@example.com'])).toBe(true);
    const audited = data.auditEntries.map((a: { action: string; target: string }) => [a.action, a.target]);
    expect(audited).toContainEqual(['booking_cancelled_by_staff', references['aisyah@example.com']]);
    expect(audited).toContainEqual(['booking_direct', deskReference]);
    // Nothing of the other parent anywhere in the answer.
    const text = everyText(data);
    for (const other of [NAISYAH.visitorEmail, NAISYAH.visitorContactNo, NAISYAH.visitorName, references['naisyah@example.com'], paymentIds['naisyah@example.com']])
      expect(text).not.toContain(other);
    // The payment's key is not personal data to hand over: it is left out.
    expect(text).not.toContain('"holdToken"');
  });

  it('finds by phone, as typed in any form', async () => {
    const res = await ctx.app.inject({ url: `/staff/privacy/person?phone=${encodeURIComponent('+60 12-345 6782')}`, headers: auth(token) });
    const data = res.json().data;
    expect(data.payments.map((p: { id: string }) => p.id)).toEqual([paymentIds['naisyah@example.com']]);
    expect(everyText(data)).not.toContain('"aisyah@example.com"');
    expect(everyText(data)).not.toContain(AISYAH.visitorContactNo);
  });

  it('exports JSON and CSV with the same records, and each export is in the audit trail', async () => {
    const json = await ctx.app.inject({ url: '/staff/privacy/person/export?email=aisyah@example.com&format=json', headers: auth(token) });
    expect(json.headers['content-disposition']).toBe('attachment; filename="person-aisyah@example.com.json"');
    expect(json.headers['cache-control']).toBe('no-store');
    const exported = JSON.parse(json.body);
    expect(exported.payments[0].id).toBe(paymentIds['aisyah@example.com']);

    const csv = await ctx.app.inject({ url: '/staff/privacy/person/export?email=aisyah@example.com&format=csv', headers: auth(token) });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.startsWith('\uFEFF')).toBe(true); // the BOM (shared-api/csv)
    const [header, ...rows] = parseCsv(csv.body.slice(1));
    expect(header[0]).toBe('record');
    expect(rows.every((row) => row.length === header.length)).toBe(true);
    const kinds = new Set(rows.map((row) => row[0]));
    expect([...kinds].sort()).toEqual(['auditEntries', 'bookings', 'consents', 'mails', 'payments']);
    expect(csv.body).toContain(references['aisyah@example.com']);
    expect(csv.body).not.toContain('naisyah@example.com');

    const audited = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'privacy_person_exported'), eq(auditLog.actor, STAFF.email)));
    expect(audited.map((a) => (a.detail as { format: string }).format).sort()).toEqual(['csv', 'json']);
    // Whose data: the person looked up is the record's target (the trail's CSV said nothing of it).
    expect(audited.map((a) => a.target)).toEqual(['aisyah@example.com', 'aisyah@example.com']);
    const viewed = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'privacy_person_viewed'));
    expect(viewed.length).toBeGreaterThanOrEqual(2);
    // Each look-up names the email or phone it was by (earlier tests here looked up by phone).
    expect(new Set(viewed.map((v) => v.target))).toEqual(new Set(['aisyah@example.com', '0123456782']));
  });

  it('answers only signed-in staff, and needs exactly one of email or phone', async () => {
    expect((await ctx.app.inject({ url: '/staff/privacy/person?email=aisyah@example.com' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: '/staff/privacy/person/export?email=aisyah@example.com' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: '/staff/privacy/person', headers: auth(token) })).statusCode).toBe(400);
    expect((await ctx.app.inject({ url: '/staff/privacy/person?email=a@example.com&phone=0123456789', headers: auth(token) })).statusCode).toBe(400);
  });
});
