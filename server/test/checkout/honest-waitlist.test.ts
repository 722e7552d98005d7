jest.setTimeout(180_000);
import { sql } from 'drizzle-orm';
import { addDays, dateInMY, isWeekend } from 'shared-api/contract';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { slots } from '../../src/slots/tables';
import { currentConsent, queryRows, visitor } from '../helpers';
import { postJsonFrom, twoApiProcesses, type Server } from '../payments/server-process';
import { waitFor } from '../payments/support';
import { tokenIn } from '../bookings/support';
import { atMY, joinAndConfirm, joinBody, linkToken, parent } from '../waitlist/support';

// The honest waitlist after issue 34, on two API processes and one PostgreSQL: three parents wait, a booked visit is
// cancelled, the freed slot is offered to the first parent alone, who pays through the other process and is booked
// exactly once.

describe('an honest waitlist on two API processes', () => {
  let servers: Server[] = [];
  let db: DatabaseHandle;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ servers, db, stop } = await twoApiProcesses('honest-waitlist'));
  });
  afterAll(() => stop?.());

  /** Pays a payment on the sandbox's checkout page (as the parent's browser does) and waits for its callback to book it. */
  async function payOnSandbox(checkoutUrl: string, paymentId: string) {
    const paid = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ action: 'pay', method: 'fpx' }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    await waitFor(async () => (await queryRows<{ status: string }>(db, sql`SELECT status FROM payments WHERE id = ${paymentId}`))[0]?.status === 'completed', 20_000, 100);
  }

  it('three parents wait, a visit is cancelled: the first in line alone is offered it, pays through the other process, and is booked once', async () => {
    const [a, b] = servers.map((s) => s.base);
    let day = addDays(dateInMY(new Date()), 4);
    while (isWeekend(day)) day = addDays(day, 1);
    const startAt = atMY(day, '09:00');
    const [slot] = await db.db.insert(slots).values({ startAt, endAt: new Date(startAt.getTime() + 30 * 60_000) }).returning();

    // Someone books it (the timetable is full), and three parents join the list.
    const booked = await postJsonFrom<{ paymentSession: { id: string; checkoutUrl: string } }>('127.0.50.2', `${a}/api/payment/initiate`, {
      ...visitor,
      visitorEmail: 'first.booker@example.com',
      slotId: slot.id,
      consent: currentConsent(),
    });
    expect(booked.status).toBe(200);
    await payOnSandbox(booked.body.data.paymentSession.checkoutUrl, booked.body.data.paymentSession.id);
    const range = { fromDate: dateInMY(new Date()), toDate: addDays(dateInMY(new Date()), 14) };
    for (const i of [1, 2, 3]) expect(await joinAndConfirm(db, i % 2 ? a : b, `127.0.${60 + i}.2`, joinBody(i, range))).toBe(200);

    // The booker cancels through their manage link on one process: the slot is freed and offered, by whichever pass runs.
    const [confirmation] = await queryRows<{ text_body: string }>(
      db,
      sql`SELECT text_body FROM mail_outbox WHERE payment_id = ${booked.body.data.paymentSession.id} AND kind = 'visitor_confirmation'`,
    );
    const manage = `${b}/api/booking/manage/${tokenIn(confirmation.text_body)}`;
    const quote = ((await (await fetch(manage)).json()) as { data: { cancelQuote: { amountSen: number } } }).data.cancelQuote;
    const cancelled = await postJsonFrom('127.0.50.2', `${manage}/cancel`, { expectedRefundSen: quote.amountSen });
    expect(cancelled.status).toBe(200);
    const offers = await waitFor(async () => {
      const rows = await queryRows<{ slot_id: number; email: string }>(
        db,
        sql`SELECT o.slot_id, e.email FROM waitlist_offers o JOIN waitlist_entries e ON e.id = o.entry_id WHERE o.outcome IS NULL`,
      );
      return rows.length > 0 && rows;
    }, 40_000, 200);
    expect(offers).toEqual([{ slot_id: slot.id, email: parent(1).email }]);

    // Parent 1 accepts on one process and pays on the other.
    const [offerMail] = await queryRows<{ text_body: string }>(db, sql`SELECT text_body FROM mail_outbox WHERE kind = 'waitlist_offer' AND recipient = ${parent(1).email}`);
    const accepted = await postJsonFrom<{ slotId: number; token: string }>('127.0.61.2', `${b}/api/waitlist/offer/${linkToken(offerMail.text_body, 'offer')}/accept`, {});
    expect(accepted.status).toBe(200);
    const paying = await postJsonFrom<{ paymentSession: { id: string; checkoutUrl: string } }>('127.0.61.2', `${a}/api/payment/initiate`, {
      ...visitor,
      visitorName: parent(1).name,
      visitorEmail: parent(1).email,
      visitorContactNo: parent(1).phone,
      slotId: slot.id,
      holdToken: accepted.body.data.token,
      consent: currentConsent(),
    });
    expect(paying.status).toBe(200);
    await payOnSandbox(paying.body.data.paymentSession.checkoutUrl, paying.body.data.paymentSession.id);

    // Booked once, for parent 1; their entry and offer end booked; the others wait with nothing held.
    await waitFor(async () => (await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM waitlist_offers WHERE outcome = 'booked'`))[0].n === 1, 40_000, 200);
    const [row] = await queryRows<{ status: string; visitor_email: string; booking_reference: string }>(db, sql`SELECT status, visitor_email, booking_reference FROM slots WHERE id = ${slot.id}`);
    expect(row).toMatchObject({ status: 'booked', visitor_email: parent(1).email });
    const completed = await queryRows<{ reference: string; visitor_email: string }>(
      db,
      sql`SELECT reference, visitor_email FROM payments WHERE slot_id = ${slot.id} AND status = 'completed' AND booking_status = 'booked'`,
    );
    expect(completed).toEqual([{ reference: row.booking_reference, visitor_email: parent(1).email }]);
    const entries = await queryRows<{ email: string; state: string }>(db, sql`SELECT email, state FROM waitlist_entries ORDER BY email`);
    expect(entries).toEqual([
      { email: parent(1).email, state: 'booked' },
      { email: parent(2).email, state: 'waiting' },
      { email: parent(3).email, state: 'waiting' },
    ]);
    const confirmations = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mail_outbox WHERE kind = 'visitor_confirmation' AND recipient = ${parent(1).email}`);
    expect(confirmations[0].n).toBe(1);
    expect((await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM waitlist_offers`))[0].n).toBe(1);
  });
});
