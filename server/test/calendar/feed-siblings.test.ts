// The staff's calendar feed with a booking of several children (issue 37): one event per booking, naming its children,
// from rows written straight into the database (two booked seats of one time under one reference, one payment).
jest.setTimeout(60_000);
import { buildFeed, invitationUid } from 'shared-api/contract';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { feedEvents } from '../../src/calendar/feed';
import { paymentChildren, payments } from '../../src/payments/tables';
import { slots } from '../../src/slots/tables';
import { freshPglite, insertConsent, visitor } from '../helpers';

const siblings = [
  { childName: 'Adam Firdaus', childYear: 'Form 1', selectedSchool: 'Seri Ilmu Private Secondary', amountSen: 7500 },
  { childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary', amountSen: 4500 },
  { childName: 'Hana Sofea', childYear: 'Year 3', selectedSchool: 'Seri Ilmu Private Primary', amountSen: 4500 },
];

/** The feed's VEVENTs, each as its property lines (folding and escapes undone) keyed by name. */
function eventsOf(ics: string): Array<Record<string, string>> {
  return ics
    .replace(/\r\n[ \t]/g, '')
    .split('BEGIN:VEVENT')
    .slice(1)
    .map((block) =>
      Object.fromEntries(
        block
          .split('\r\n')
          .filter((l) => /^[A-Z-]+[;:]/.test(l))
          .map((l) => [l.slice(0, l.search(/[;:]/)), l.slice(l.indexOf(':') + 1).replace(/\\n/g, '\n').replace(/\\([,;\\])/g, '$1')]),
      ),
    );
}

describe('calendar feed: a booking of several children', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await freshPglite();
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A paid booking of `children` at one time `hoursAhead` from now: a booked seat each under the payment's reference. */
  async function paidBooking(reference: string, hoursAhead: number, children: typeof siblings, { cancelled = [] as number[] } = {}) {
    const startAt = new Date(Math.floor((Date.now() + hoursAhead * 3_600_000) / 60_000) * 60_000);
    const endAt = new Date(startAt.getTime() + 30 * 60_000);
    const consentId = await insertConsent(database.db);
    const seats = await database.db
      .insert(slots)
      .values(
        children.map((c, i) => ({
          startAt,
          endAt,
          seat: i + 1,
          // A cancelled child's seat is free again.
          status: cancelled.includes(i + 1) ? ('available' as const) : ('booked' as const),
          ...(cancelled.includes(i + 1) ? {} : { ...visitor, selectedSchool: c.selectedSchool, childName: c.childName, childYear: c.childYear, bookingReference: reference, consentId }),
        })),
      )
      .returning();
    const [payment] = await database.db
      .insert(payments)
      .values({
        id: `pay_${reference}`,
        reference,
        slotId: seats[0].id,
        status: 'completed',
        bookingStatus: 'booked',
        amountSen: children.reduce((sum, c) => sum + c.amountSen, 0),
        ...visitor,
        selectedSchool: children[0].selectedSchool,
        childName: children[0].childName,
        childYear: children[0].childYear,
        holdToken: `hold-${reference}`,
        gateway: 'sandbox',
        sessionExpiresAt: new Date(),
        consentId,
      })
      .returning();
    // One child alone is a booking of one: no children rows, as the checkout writes it.
    if (children.length > 1)
      await database.db.insert(paymentChildren).values(
        children.map((c, i) => ({
          paymentId: payment.id,
          position: i + 1,
          slotId: seats[i].id,
          ...c,
          feeSen: 7500,
          discountSen: 7500 - c.amountSen,
          ...(cancelled.includes(i + 1) && { cancelledAt: new Date(), cancelledBy: 'parent' }),
        })),
      );
    return { payment, seats };
  }

  it('shows one event for the two booked seats of one payment, naming both children; a booking of one child as before', async () => {
    const two = await paidBooking('PAY-TWO-1', 48, siblings.slice(0, 2));
    await paidBooking('PAY-ONE-1', 49, siblings.slice(0, 1));
    const ics = buildFeed(await feedEvents(database.db, new Date()));
    const events = eventsOf(ics);

    const ofTwo = events.filter((e) => e.DESCRIPTION.includes('Reference: PAY-TWO-1'));
    expect(ofTwo).toHaveLength(1);
    expect(ofTwo[0].UID).toBe(invitationUid('PAY-TWO-1'));
    expect(ofTwo[0].SUMMARY).toBe('Assessment: Adam Firdaus, Form 1 (Seri Ilmu Private Secondary); Siti Hajar, Year 1 (Seri Ilmu Private Primary)');
    expect(ofTwo[0].DESCRIPTION).toContain('Child 1: Adam Firdaus, Form 1, Seri Ilmu Private Secondary\nChild 2: Siti Hajar, Year 1, Seri Ilmu Private Primary');
    // The second seat is no booking of its own (its id is no payment's slot id).
    expect(events.filter((e) => e.UID === `slot-${two.seats[1].id}@seriilmu.edu.my`)).toEqual([]);
    expect(events.filter((e) => e.SUMMARY.includes('Siti Hajar'))).toHaveLength(1);

    const ofOne = events.filter((e) => e.DESCRIPTION.includes('Reference: PAY-ONE-1'));
    expect(ofOne).toHaveLength(1);
    expect(ofOne[0].SUMMARY).toBe('Assessment: Adam Firdaus, Form 1 (Seri Ilmu Private Secondary)');
    expect(ofOne[0].DESCRIPTION).toContain('Child: Adam Firdaus\nYear or grade applied for: Form 1\nSchool: Seri Ilmu Private Secondary\n');
  });

  it('names only the children still booked once one is cancelled', async () => {
    await paidBooking('PAY-THREE-1', 50, siblings, { cancelled: [2] });
    const events = eventsOf(buildFeed(await feedEvents(database.db, new Date()))).filter((e) => e.DESCRIPTION.includes('Reference: PAY-THREE-1'));
    expect(events).toHaveLength(1);
    expect(events[0].SUMMARY).toBe('Assessment: Adam Firdaus, Form 1 (Seri Ilmu Private Secondary); Hana Sofea, Year 3 (Seri Ilmu Private Primary)');
    expect(events[0].DESCRIPTION).not.toContain('Siti Hajar');
  });

  it('still lists a booked seat no payment stands behind (a booking staff made) as its own event', async () => {
    const startAt = new Date(Math.floor((Date.now() + 51 * 3_600_000) / 60_000) * 60_000);
    const [seat] = await database.db
      .insert(slots)
      .values({ startAt, endAt: new Date(startAt.getTime() + 30 * 60_000), status: 'booked', ...visitor, bookingReference: 'STAFF-1', consentId: await insertConsent(database.db) })
      .returning();
    const uids = eventsOf(buildFeed(await feedEvents(database.db, new Date()))).map((e) => e.UID);
    expect(uids).toContain(`slot-${seat.id}@seriilmu.edu.my`);
  });
});
