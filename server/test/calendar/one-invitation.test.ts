import { PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { calendarVisitOf, icsFile } from '../../../booking-remote/src/features/payment-result/utils/calendar';
import { calendarLinks } from '../../../booking-remote/src/features/manage-booking/utils/calendar';
import { auth, adminToken } from '../helpers';
import { insertSlot, startPaymentsApp, type PayCtx } from '../payments/support';
import { bookPaid, mailsOf, manageGet, reschedule } from '../bookings/support';

// One invitation everywhere: the .ics the parent is mailed, the one the success page and the manage page offer (the
// browser's code, fed the API's answers) and the staff's feed name one event: the same UID, SEQUENCE, times and place.
// A calendar that gets two of them keeps one event, and the move mail's invitation updates the downloaded one.
jest.setTimeout(60_000);

/** The VEVENT's properties that make it the same event at the same time and place (folding undone, parameters kept). */
function identity(ics: string, uid?: string): Record<string, string> {
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n');
  const events: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') current = {};
    else if (line === 'END:VEVENT') {
      events.push(current!);
      current = null;
    } else if (current) {
      const colon = line.indexOf(':');
      current[line.slice(0, colon)] = line.slice(colon + 1);
    }
  }
  const event = uid ? events.find((e) => e.UID === uid) : events[0];
  if (!event) throw new Error(`no VEVENT${uid ? ` with UID ${uid}` : ''} in:\n${ics}`);
  const keys = Object.keys(event).filter((k) => /^(UID|SEQUENCE|DTSTART|DTEND|LOCATION)\b/.test(k));
  return Object.fromEntries(keys.map((k) => [k, event[k]]));
}

const startOf = (event: Record<string, string>) => Object.entries(event).find(([name]) => name.startsWith('DTSTART'))?.[1];

describe('one calendar invitation for mail, success page, manage page and staff feed', () => {
  let ctx: PayCtx;
  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('the same UID, SEQUENCE, start, end and place before and after a move', async () => {
    const booked = await bookPaid(ctx, 60, 'one-invitation@example.com');
    const mailed = (kind: string) =>
      mailsOf(ctx, booked.paymentId).then((mails) => mails.filter((m) => m.kind === kind).map((m) => m.ics as string));
    const [confirmation] = await mailed('visitor_confirmation');
    const expected = identity(confirmation);
    expect(expected.UID).toBe(`${booked.reference}@seriilmu.edu.my`);
    expect(expected.SEQUENCE).toBe('0');

    // The success page: the receipt the paying browser gets with its payment key.
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/payment/status/reference/${booked.reference}`,
      headers: { [PAYMENT_KEY_HEADER]: booked.key },
    });
    expect(status.statusCode).toBe(200);
    const successIcs = await icsFile(calendarVisitOf(status.json().data));
    expect(identity(successIcs!)).toEqual(expected);

    // The success page of a browser without the key (a forwarded receipt URL): the same event.
    const receipt = async (headers: Record<string, string> = {}) => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/payment/status/reference/${booked.reference}`, headers, remoteAddress: '10.62.0.1' });
      expect(res.statusCode).toBe(200);
      return (await icsFile(calendarVisitOf(res.json().data)))!;
    };
    expect(identity(await receipt())).toEqual(expected);

    // The manage page: the view its link opens.
    const managePageIcs = async () => {
      const view = await manageGet(ctx, booked.token);
      expect(view.statusCode).toBe(200);
      return (await calendarLinks(view.json().data)).ics;
    };
    expect(identity(await managePageIcs())).toEqual(expected);

    // The staff's feed.
    const staff = await adminToken(ctx);
    const feedUrl = (await ctx.app.inject({ method: 'POST', url: '/staff/calendar-feed', headers: auth(staff) })).json().data.url;
    const feed = async () => (await ctx.app.inject({ method: 'GET', url: new URL(feedUrl).pathname, remoteAddress: '10.61.0.1' })).body;
    expect(identity(await feed(), expected.UID)).toEqual(expected);

    // A move: the mail's invitation has a higher SEQUENCE and the new time; the manage page and the feed follow it.
    const later = await insertSlot(ctx.database, 84);
    expect((await reschedule(ctx, booked.token, later.id)).statusCode).toBe(200);
    const [moveMail] = await mailed('visitor_rescheduled');
    const moved = identity(moveMail);
    expect(moved).toMatchObject({ UID: expected.UID, SEQUENCE: '1' });
    expect(startOf(moved)).not.toBe(startOf(expected));
    expect(identity(await managePageIcs())).toEqual(moved);
    expect(identity(await receipt({ [PAYMENT_KEY_HEADER]: booked.key }))).toEqual(moved);
    expect(identity(await receipt())).toEqual(moved);
    expect(identity(await feed(), expected.UID)).toEqual(moved);
  });
});
