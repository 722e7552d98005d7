import { count, eq } from 'drizzle-orm';
import { addDays, dateInMY } from 'shared-api/contract';
import { auditLog } from '../../src/audit/table';
import { createUser } from '../../src/auth/accounts';
import { mailOutbox } from '../../src/mail/tables';
import { payments } from '../../src/payments/tables';
import { waitlistEntries } from '../../src/waitlist/tables';
import { auth, STAFF, enrolSecondFactor } from '../helpers';
import { joinMany, mailsTo, parent } from '../waitlist/support';
import { initiateBody, initiateOk, insertSlot, markSandboxPaid, postSandboxCallback, slotRow, startPaymentsApp, waitFor, type PayCtx } from '../payments/support';

// Issue 28 (PDPA correction): staff correct a visitor's name, email or phone from the request log: every booking and
// payment naming that person changes, nobody else's; it is in the audit trail; nothing new is sent.
jest.setTimeout(90_000);

const AISYAH = { visitorName: 'Aisyah Rahman', visitorEmail: 'aisyah@example.com', visitorContactNo: '0123456781', childName: 'Nur Iman' };
const OTHER = { visitorName: 'Aisyah Rahmat', visitorEmail: 'naisyah@example.com', visitorContactNo: '0123456782', childName: 'Nur Imam' };

describe.each(['pglite', 'postgres'] as const)('corrections of a visitor on %s', (driver) => {
  let ctx: PayCtx;
  let token: string;
  const slotOf: Record<string, number> = {};
  const paymentOf: Record<string, string> = {};
  beforeAll(async () => {
    ctx = await startPaymentsApp(driver);
    // Messages stay unsent (as while the mail server is down): a correction must redirect them.
    await ctx.app.jobs.stopWorking('mail');
    await createUser(ctx.database.db, STAFF);
    token = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF })).json().data.token as string;
    await enrolSecondFactor(ctx, token);
    let hours = 60;
    for (const parent of [AISYAH, OTHER]) {
      const slot = await insertSlot(ctx.database, hours++);
      const { payment, sandboxId } = await initiateOk(ctx, initiateBody(slot, parent));
      await markSandboxPaid(ctx, sandboxId);
      await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
      await waitFor(async () => (await slotRow(ctx, slot.id)).status === 'booked');
      slotOf[parent.visitorEmail] = slot.id;
      paymentOf[parent.visitorEmail] = payment.id;
    }
  });
  afterAll(() => ctx?.close());

  const correct = (payload: object, withToken = true) =>
    ctx.app.inject({ method: 'POST', url: '/staff/privacy/corrections', headers: withToken ? auth(token) : {}, payload });
  const payment = async (id: string) => (await ctx.database.db.select().from(payments).where(eq(payments.id, id)))[0];
  const outboxSize = async () => (await ctx.database.db.select({ n: count() }).from(mailOutbox))[0].n;

  it("corrects the name, email and phone on the person's booking and payment, leaves the other parent alone, audits it and sends nothing new", async () => {
    const logged = (await ctx.app.inject({ method: 'POST', url: '/staff/privacy/requests', headers: auth(token), payload: { kind: 'correction', email: AISYAH.visitorEmail, receivedOn: '2026-11-20' } })).json().data.request;
    const mails = await outboxSize();
    const otherBefore = { payment: await payment(paymentOf[OTHER.visitorEmail]), slot: await slotRow(ctx, slotOf[OTHER.visitorEmail]) };

    const res = await correct({ email: 'Aisyah@Example.com', requestId: logged.id, visitorName: 'Aisyah binti Rahman', visitorEmail: ' Aisyah.R@Example.com ', visitorContactNo: '+60 12-999 8877' });
    expect(res.statusCode).toBe(200);
    // Her confirmation, not sent yet, now goes to the corrected address.
    expect(res.json().data).toEqual({ payments: 1, bookings: 1, waitlistEntries: 0, mailsRedirected: 1, person: { email: 'aisyah.r@example.com', phone: null } });
    expect((await mailsTo(ctx, 'aisyah.r@example.com')).map((m) => [m.kind, m.paymentId])).toEqual([['visitor_confirmation', paymentOf[AISYAH.visitorEmail]]]);
    expect(await mailsTo(ctx, AISYAH.visitorEmail)).toEqual([]);

    const changed = { visitorName: 'Aisyah binti Rahman', visitorEmail: 'aisyah.r@example.com', visitorContactNo: '0129998877' };
    expect(await payment(paymentOf[AISYAH.visitorEmail])).toMatchObject({ ...changed, status: 'completed', amountSen: 7500 });
    expect(await slotRow(ctx, slotOf[AISYAH.visitorEmail])).toMatchObject({ ...changed, status: 'booked' });
    expect(await payment(paymentOf[OTHER.visitorEmail])).toEqual(otherBefore.payment);
    expect(await slotRow(ctx, slotOf[OTHER.visitorEmail])).toEqual(otherBefore.slot);
    // Nothing new sent: no mail to the old address, the new one or anyone.
    expect(await outboxSize()).toBe(mails);

    const [entry] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'privacy_visitor_corrected'));
    expect(entry).toMatchObject({ actor: STAFF.email, target: String(logged.id) });
    expect(entry.detail).toMatchObject({
      requestId: logged.id,
      was: [{ name: AISYAH.visitorName, email: AISYAH.visitorEmail, phone: AISYAH.visitorContactNo }],
      now: { name: 'Aisyah binti Rahman', email: 'aisyah.r@example.com', phone: '0129998877' },
    });

    // The staff look-up finds her under the corrected address, and the old one holds no booking any more.
    const found = (await ctx.app.inject({ url: '/staff/privacy/person?email=aisyah.r@example.com', headers: auth(token) })).json().data;
    expect([found.bookings.length, found.payments.length]).toEqual([1, 1]);
    const old = (await ctx.app.inject({ url: `/staff/privacy/person?email=${AISYAH.visitorEmail}`, headers: auth(token) })).json().data;
    expect([old.bookings.length, old.payments.length]).toEqual([0, 0]);
  });

  it('corrects by phone, one field only', async () => {
    const res = await correct({ phone: '012-345 6782', visitorName: 'Aisyah Rahmat binti Ali' });
    expect(res.json().data).toMatchObject({ payments: 1, bookings: 1, person: { email: null, phone: '0123456782' } });
    expect(await payment(paymentOf[OTHER.visitorEmail])).toMatchObject({ ...OTHER, visitorName: 'Aisyah Rahmat binti Ali' });
  });

  it('corrects a waitlist entry too, and a message to them not sent yet goes to the corrected address; a sent one stays', async () => {
    const today = dateInMY(new Date());
    await joinMany(ctx, [7], { fromDate: addDays(today, 1), toDate: addDays(today, 8) });
    const wrong = parent(7);
    const [asked, joined] = await mailsTo(ctx, wrong.email);
    expect([asked, joined]).toMatchObject([{ kind: 'waitlist_confirm', status: 'pending' }, { kind: 'waitlist_joined', status: 'pending' }]);
    // An older message to the same mistyped address, already sent: the record of where it went stays.
    const [sent] = await ctx.database.db
      .insert(mailOutbox)
      .values({ kind: 'waitlist_offer', recipient: wrong.email, subject: 's', textBody: 't', htmlBody: 'h', messageId: `<sent-${driver}@example.com>`, status: 'sent' })
      .returning();

    const res = await correct({ phone: wrong.phone, visitorName: 'Parent Seven', visitorEmail: 'parent.seven@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ payments: 0, bookings: 0, waitlistEntries: 1, mailsRedirected: 2, person: { email: null, phone: wrong.phone } });
    const [entry] = await ctx.database.db.select().from(waitlistEntries).where(eq(waitlistEntries.phone, wrong.phone));
    expect(entry).toMatchObject({ name: 'Parent Seven', email: 'parent.seven@example.com', state: 'waiting' });
    expect((await mailsTo(ctx, 'parent.seven@example.com')).map((m) => m.id)).toEqual([asked.id, joined.id]);
    expect((await mailsTo(ctx, wrong.email)).map((m) => m.id)).toEqual([sent.id]);
    const [audited] = (await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'privacy_visitor_corrected'))).slice(-1);
    expect(audited.detail).toMatchObject({ waitlistEntries: [entry.id], mailsRedirected: [asked.id, joined.id], was: [{ name: wrong.name, email: wrong.email, phone: wrong.phone }] });
  });

  it("refuses (409, naming the entry) a correction that would give two live waitlist entries one email, and changes nothing", async () => {
    const today = dateInMY(new Date());
    await joinMany(ctx, [8, 9], { fromDate: addDays(today, 1), toDate: addDays(today, 8) });
    const [other] = await ctx.database.db.select().from(waitlistEntries).where(eq(waitlistEntries.email, parent(9).email));
    const before = JSON.stringify(await ctx.database.db.select().from(waitlistEntries).orderBy(waitlistEntries.id));
    const res = await correct({ phone: parent(8).phone, visitorName: 'Parent Eight', visitorEmail: parent(9).email });
    expect(res.statusCode).toBe(409);
    expect(res.json().reason).toEqual({ rule: 'waitlistEntryClash', params: { entryId: other.id, school: other.school } });
    expect(res.json().message).toContain(`entry ${other.id}`);
    expect(JSON.stringify(await ctx.database.db.select().from(waitlistEntries).orderBy(waitlistEntries.id))).toBe(before);
  });

  it('refuses bad input, an unknown person or request and anyone not signed in, changing nothing', async () => {
    const before = JSON.stringify(await ctx.database.db.select().from(payments).orderBy(payments.id));
    const trail = (await ctx.database.db.select({ n: count() }).from(auditLog))[0].n;
    for (const [payload, status] of [
      [{ email: 'aisyah.r@example.com' }, 400],
      [{ email: 'aisyah.r@example.com', visitorEmail: 'not an email' }, 400],
      [{ email: 'aisyah.r@example.com', phone: '0123456782', visitorName: 'X Y' }, 400],
      [{ email: 'aisyah.r@example.com', visitorName: 'A' }, 400],
      [{ email: 'nobody@example.com', visitorName: 'Some One' }, 404],
      [{ email: 'aisyah.r@example.com', visitorName: 'Some One', requestId: 99999 }, 404],
    ] as const) expect([payload, (await correct(payload)).statusCode]).toEqual([payload, status]);
    expect((await correct({ email: 'aisyah.r@example.com', visitorName: 'Some One' }, false)).statusCode).toBe(401);
    expect(JSON.stringify(await ctx.database.db.select().from(payments).orderBy(payments.id))).toBe(before);
    expect((await ctx.database.db.select({ n: count() }).from(auditLog))[0].n).toBe(trail);
  });
});
