// Issue 38, what staff see: a booking's messages to the parent on both channels (state, and why one failed; never a
// body), "Confirmed by parent" and the WhatsApp choice on GET /staff/bookings/:reference; and a day's visits no parent
// has confirmed (GET /staff/visits/unconfirmed), for bookings of one child, of several, and a child moved alone.
import { eq } from 'drizzle-orm';
import { addDays, dateInMY, midnightInMY } from 'shared-api/contract';
import { slots } from '../../src/slots/tables';
import { payments } from '../../src/payments/tables';
import { mailOutbox } from '../../src/mail/tables';
import { whatsappMessages } from '../../src/whatsapp/tables';
import { waitlistEntries, waitlistOffers } from '../../src/waitlist/tables';
import { messageIdFor } from '../../src/mail/outbox';
import { auth, insertConsent, insertSlot as insertBookedSlot, staffToken } from '../helpers';
import {
  initiateBody,
  initiateOk,
  markSandboxPaid,
  paymentRow,
  postSandboxCallback,
  startPaymentsApp,
  waitFor,
  type Driver,
  type PayCtx,
} from '../payments/support';

jest.setTimeout(90_000);

const sister = { childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary' };
const VISITOR = {
  visitorName: 'Lim Wei Jie',
  visitorEmail: 'wei.jie@example.com',
  visitorContactNo: '017-222 3344',
  selectedSchool: 'Seri Ilmu International',
  childName: 'Lim Jun Hao',
  childYear: 'Year 3',
};

describe.each<Driver>(['pglite', 'postgres'])('staff see the messages to a parent and who confirmed (%s)', (driver) => {
  let ctx: PayCtx;
  let staff: string;
  // A GMT+8 day a month ahead, whatever the time of day the test runs at: every visit below is placed on its hours.
  const day = addDays(dateInMY(Date.now()), 30);
  const at = (dayOffset: number, hour: number, minute = 0) =>
    new Date(midnightInMY(addDays(day, dayOffset)) + (hour * 60 + minute) * 60_000);

  beforeAll(async () => {
    ctx = await startPaymentsApp(driver);
    staff = await staffToken(ctx as never);
    // A timetable of 50 more times: each network may hold a share of what is free (the hold limits are tested elsewhere).
    for (let hour = 0; hour < 50; hour++) await seatsAt(at(10 + Math.floor(hour / 10), 8 + (hour % 10)));
  });
  afterAll(() => ctx?.close());

  async function seatsAt(start: Date, seats = 1) {
    return ctx.database.db
      .insert(slots)
      .values(
        Array.from({ length: seats }, (_, i) => ({
          startAt: start,
          endAt: new Date(start.getTime() + 30 * 60_000),
          seat: i + 1,
        })),
      )
      .returning();
  }

  /** A parent pays for `start` (with `extra`, e.g. a sibling on a time of two seats): the completed payment. */
  async function bookPaid(start: Date, email: string, extra: Record<string, unknown> = {}, seats = 1) {
    const time = await seatsAt(start, seats);
    const { session, sandboxId } = await initiateOk(
      ctx,
      initiateBody(time[0], { visitorEmail: email, ...extra }),
    );
    await markSandboxPaid(ctx, sandboxId);
    await postSandboxCallback(ctx, {
      session_id: sandboxId,
      status: 'paid',
      amount: extra.siblings ? 12000 : 7500,
    });
    return waitFor(async () => {
      const row = await paymentRow(ctx, session.id);
      return row.status === 'completed' && row;
    });
  }

  const details = (reference: string, token: string | null = staff) =>
    ctx.app.inject({ url: `/staff/bookings/${reference}`, headers: token ? auth(token) : {} });
  const unconfirmed = (query: string, token: string | null = staff) =>
    ctx.app.inject({ url: `/staff/visits/unconfirmed${query}`, headers: token ? auth(token) : {} });

  test('the details list each message newest first with its state and why one failed, never its body; then who confirmed', async () => {
    const p = await bookPaid(at(0, 9), 'messages@example.com');
    // The mail worker's sends finished first (a job still running would mark its row sent, now, after the change below):
    // then each mail row is given the state this test reads.
    const mails = await waitFor(async () => {
      const rows = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.paymentId, p.id));
      return rows.some((m) => m.kind === 'visitor_confirmation') && rows.every((m) => m.status === 'sent') && rows;
    });
    const confirmationMail = mails.find((m) => m.kind === 'visitor_confirmation')!;
    await ctx.database.db
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: new Date('2026-01-05T02:00:00Z'), lastError: null })
      .where(eq(mailOutbox.id, confirmationMail.id));
    await ctx.database.db.insert(mailOutbox).values({
      paymentId: p.id,
      kind: 'visitor_reminder',
      recipient: 'messages@example.com',
      subject: 'SECRET SUBJECT',
      textBody: 'SECRET BODY',
      htmlBody: '<p>SECRET BODY</p>',
      status: 'failed',
      lastError: '550 5.1.1 <messages@example.com>: Recipient address rejected: User unknown',
      messageId: `<${p.reference}.test-reminder@example.com>`,
      createdAt: new Date('2026-01-07T01:00:00Z'),
    });
    const whatsapp = (
      values: Partial<typeof whatsappMessages.$inferInsert> &
        Pick<typeof whatsappMessages.$inferInsert, 'kind' | 'state' | 'dedupeKey'>,
    ) =>
      ctx.database.db
        .insert(whatsappMessages)
        .values({
          paymentId: p.id,
          toE164: '+60172223344',
          locale: 'en',
          template: `${values.kind}_v1`,
          requestBody: { secret: 'SECRET BODY' },
          ...values,
        });
    await whatsapp({
      kind: 'booking_confirmation',
      state: 'read',
      dedupeKey: `booking:${p.id}:confirmation`,
      wamid: 'wamid.read',
      sentAt: new Date('2026-01-05T02:00:05Z'),
      stateAt: new Date('2026-01-05T03:10:00Z'),
    });
    await whatsapp({
      kind: 'visit_reminder',
      state: 'failed',
      dedupeKey: `booking:${p.id}:reminder`,
      errorCode: '131026',
      errorTitle: 'Message undeliverable',
      createdAt: new Date('2026-01-07T01:00:00Z'),
      stateAt: new Date('2026-01-07T01:00:02Z'),
    });
    // Another booking's message is not this one's.
    await whatsapp({
      kind: 'visit_reminder',
      state: 'sent',
      dedupeKey: 'booking:someone-else:reminder',
      paymentId: 'someone-else',
      wamid: 'wamid.other',
    });

    const res = await details(p.reference);
    expect(res.statusCode).toBe(200);
    const booking = res.json().data;
    expect(booking.messages).toEqual([
      {
        channel: 'whatsapp',
        kind: 'reminder',
        state: 'failed',
        at: '2026-01-07T01:00:02.000Z',
        reason: '131026 Message undeliverable',
      },
      {
        channel: 'email',
        kind: 'reminder',
        state: 'failed',
        at: '2026-01-07T01:00:00.000Z',
        reason:
          "The parent's email address was refused: it may be mistyped or closed (550 5.1.1 <messages@example.com>: Recipient address rejected: User unknown)",
      },
      {
        channel: 'whatsapp',
        kind: 'confirmation',
        state: 'read',
        at: '2026-01-05T03:10:00.000Z',
        reason: null,
      },
      { channel: 'email', kind: 'confirmation', state: 'sent', at: '2026-01-05T02:00:00.000Z', reason: null },
    ]);
    // The admin's copy is not a message to the parent, and no body, subject or request leaves the server.
    expect(res.body).not.toContain('SECRET');
    expect(booking.confirmedByParentAt).toBeNull();
    expect(booking.whatsapp).toEqual({ state: 'not_asked', at: null });

    await ctx.database.db
      .update(payments)
      .set({
        confirmedByParentAt: new Date('2026-01-07T03:04:05Z'),
        whatsappOptInAt: new Date('2026-01-04T10:00:00Z'),
      })
      .where(eq(payments.id, p.id));
    const confirmed = (await details(p.reference)).json().data;
    expect(confirmed.confirmedByParentAt).toBe('2026-01-07T03:04:05.000Z');
    expect(confirmed.whatsapp).toEqual({ state: 'opted_in', at: '2026-01-04T10:00:00.000Z' });

    // STOP (or the manage page) after the opt-in: withdrawn, with its time.
    await ctx.database.db
      .update(payments)
      .set({ whatsappOptOutAt: new Date('2026-01-06T12:00:00Z') })
      .where(eq(payments.id, p.id));
    expect((await details(p.reference)).json().data.whatsapp).toEqual({
      state: 'withdrawn',
      at: '2026-01-06T12:00:00.000Z',
    });
  });

  test('a booking paid from a waitlist offer lists the offer on both channels; another offer is not its', async () => {
    const p = await bookPaid(at(0, 10), 'offered@example.com');
    const consentId = await insertConsent(ctx.database.db);
    const [entry] = await ctx.database.db
      .insert(waitlistEntries)
      .values({ school: p.selectedSchool, name: 'Offered Parent', email: 'offered@example.com', phone: '0123000111', locale: 'en', fromDate: day, toDate: day, partOfDay: 'any', tokenHash: `entry-${p.id}`, consentId, state: 'booked', endedAt: new Date('2026-01-03T02:00:00Z') })
      .returning();
    const offer = async (holdToken: string, n: number) =>
      (
        await ctx.database.db
          .insert(waitlistOffers)
          .values({
            entryId: entry.id,
            slotId: p.slotId,
            tokenHash: `offer-${p.id}-${n}`,
            holdToken,
            startsAt: new Date('2026-01-03T01:00:00Z'),
            expiresAt: new Date('2026-01-03T03:00:00Z'),
            // Ended offers (one live offer per entry): the one paid, and an earlier one that ran out.
            outcome: n === 1 ? ('booked' as const) : ('expired' as const),
            endedAt: new Date('2026-01-03T02:00:00Z'),
          })
          .returning()
      )[0];
    const paidFrom = await offer(p.holdToken, 1);
    const other = await offer('another-hold-token', 2);
    for (const o of [paidFrom, other]) {
      await ctx.database.db.insert(mailOutbox).values({
        paymentId: null,
        kind: 'waitlist_offer',
        recipient: 'offered@example.com',
        subject: 'offer',
        textBody: 'offer',
        htmlBody: 'offer',
        messageId: messageIdFor('waitlist_offer', `WL-offer-${o.id}`, 'bookings@example.com'),
        status: 'sent',
        sentAt: new Date('2026-01-03T01:00:00Z'),
      });
      await ctx.database.db.insert(whatsappMessages).values({
        waitlistOfferId: o.id,
        kind: 'waitlist_offer',
        toE164: '+60123000111',
        locale: 'en',
        template: 'waitlist_offer_v1',
        requestBody: {},
        dedupeKey: `offer:${o.id}:waitlist_offer`,
        state: 'delivered',
        wamid: `wamid.offer-${o.id}`,
        stateAt: new Date('2026-01-03T01:00:09Z'),
      });
    }
    const messages = (await details(p.reference)).json().data.messages as Array<{ channel: string; kind: string; at: string }>;
    expect(messages.filter((m) => m.kind === 'waitlist_offer')).toEqual([
      { channel: 'whatsapp', kind: 'waitlist_offer', state: 'delivered', at: '2026-01-03T01:00:09.000Z', reason: null },
      { channel: 'email', kind: 'waitlist_offer', state: 'sent', at: '2026-01-03T01:00:00.000Z', reason: null },
    ]);
  });

  test('a mail still being retried shows as queued with the reason in plain words', async () => {
    const p = await bookPaid(at(0, 9, 30), 'retry@example.com');
    // Its first send finished (else that job, still running, would mark the row sent after the change below).
    await waitFor(async () => {
      const rows = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.paymentId, p.id));
      return rows.length > 0 && rows.every((r) => r.status === 'sent');
    });
    await ctx.database.db
      .update(mailOutbox)
      .set({ status: 'pending', sentAt: null, lastError: 'connect ECONNREFUSED 127.0.0.1:25' })
      .where(eq(mailOutbox.paymentId, p.id));
    const messages = (await details(p.reference)).json().data.messages;
    expect(messages).toEqual([
      expect.objectContaining({
        channel: 'email',
        kind: 'confirmation',
        state: 'queued',
        reason: 'The mail server could not be reached (connect ECONNREFUSED 127.0.0.1:25)',
      }),
    ]);
  });

  test("a day's unconfirmed visits: one child, several children, a child moved alone, a staff booking; confirmed and cancelled ones left out", async () => {
    const one = await bookPaid(at(1, 9), 'one@example.com');
    const two = await bookPaid(at(1, 10), 'two@example.com', { siblings: [sister] }, 2);
    const confirmed = await bookPaid(at(1, 11), 'confirmed@example.com');
    const cancelled = await bookPaid(at(1, 11, 30), 'cancelled@example.com');
    await ctx.database.db
      .update(payments)
      .set({ confirmedByParentAt: new Date() })
      .where(eq(payments.id, confirmed.id));
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: `/staff/bookings/${cancelled.reference}/cancel`,
          payload: { refund: false },
          headers: auth(staff),
        })
      ).statusCode,
    ).toBe(200);
    // Siti Hajar moved alone to the next day: seen there, and Adam alone at 10:00.
    const [later] = await seatsAt(at(2, 14));
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: `/staff/bookings/${two.reference}/move`,
          payload: { slotId: later.id, child: 2 },
          headers: auth(staff),
        })
      ).statusCode,
    ).toBe(200);
    // A booking staff made with no payment behind it: nothing but a call can confirm it.
    const direct = await insertBookedSlot(ctx.database, 1, {
      status: 'booked',
      bookingReference: 'DIRECT-1',
      visitorName: VISITOR.visitorName,
      visitorEmail: VISITOR.visitorEmail,
      visitorContactNo: VISITOR.visitorContactNo,
      selectedSchool: VISITOR.selectedSchool,
      childName: VISITOR.childName,
      childYear: VISITOR.childYear,
    });
    await ctx.database.db
      .update(slots)
      .set({ startAt: at(1, 15), endAt: at(1, 15, 30) })
      .where(eq(slots.id, direct.id));

    const res = await unconfirmed(`?day=${addDays(day, 1)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      day: addDays(day, 1),
      visits: [
        {
          reference: one.reference,
          start: at(1, 9).toISOString(),
          end: at(1, 9, 30).toISOString(),
          visitorName: 'Nur Aina',
          visitorContactNo: one.visitorContactNo,
          children: ['Adam Firdaus'],
          paid: true,
        },
        {
          reference: two.reference,
          start: at(1, 10).toISOString(),
          end: at(1, 10, 30).toISOString(),
          visitorName: 'Nur Aina',
          visitorContactNo: two.visitorContactNo,
          children: ['Adam Firdaus'],
          paid: true,
        },
        {
          reference: 'DIRECT-1',
          start: at(1, 15).toISOString(),
          end: at(1, 15, 30).toISOString(),
          visitorName: 'Lim Wei Jie',
          visitorContactNo: '017-222 3344',
          children: ['Lim Jun Hao'],
          paid: false,
        },
      ],
    });
    const nextDay = (await unconfirmed(`?day=${addDays(day, 2)}`)).json().data.visits;
    expect(nextDay).toEqual([
      expect.objectContaining({
        reference: two.reference,
        start: at(2, 14).toISOString(),
        children: ['Siti Hajar'],
      }),
    ]);

    // The parent of two confirms: both of their visits leave the lists.
    await ctx.database.db
      .update(payments)
      .set({ confirmedByParentAt: new Date() })
      .where(eq(payments.id, two.id));
    expect(
      (await unconfirmed(`?day=${addDays(day, 1)}`))
        .json()
        .data.visits.map((v: { reference: string }) => v.reference),
    ).toEqual([one.reference, 'DIRECT-1']);
    expect((await unconfirmed(`?day=${addDays(day, 2)}`)).json().data.visits).toEqual([]);
  });

  test('staff only, and a day that is not one is refused with a clear error', async () => {
    expect((await unconfirmed(`?day=${day}`, null)).statusCode).toBe(401);
    expect((await details('ANY-REF', null)).statusCode).toBe(401);
    for (const bad of ['?day=2026-02-30', '?day=tomorrow', '?day=2026-1-5', '']) {
      const res = await unconfirmed(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect((await unconfirmed('?day=2026-02-30')).json().message).toMatch(/real day/);
  });
});
