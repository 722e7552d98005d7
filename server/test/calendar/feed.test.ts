jest.setTimeout(60_000);
import { eq } from 'drizzle-orm';
import { brand, CalendarFeedMessage, ErrorCode, invitationUid } from 'shared-api/contract';
import { FEED_GUESS_LIMIT } from '../../src/calendar/feed';
import { users } from '../../src/auth/tables';
import { payments } from '../../src/payments/tables';
import { auth, insertSlot as insertSlotWith, adminToken } from '../helpers';
import { insertSlot, slotRow, startPaymentsApp, type PayCtx } from '../payments/support';
import { bookPaid, cancel, reschedule } from '../bookings/support';

const STAFF_B = { email: 'second@example.com', password: 'correct-horse-2' };

/** The feed's lines with folding undone (RFC 5545 3.1). */
const unfold = (ics: string): string[] => ics.replace(/\r\n[ \t]/g, '').split('\r\n').filter(Boolean);

/** The VEVENTs of a feed, each as its property lines keyed by name (parameters dropped). */
function events(ics: string): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  let current: Record<string, string> | null = null;
  for (const line of unfold(ics)) {
    if (line === 'BEGIN:VEVENT') current = {};
    else if (line === 'END:VEVENT') {
      out.push(current!);
      current = null;
    } else if (current) {
      const colon = line.search(/:(?=(?:[^"]*"[^"]*")*[^"]*$)/);
      current[line.slice(0, colon).split(';')[0]] = line.slice(colon + 1);
    }
  }
  return out;
}

/** "20261123T093000" for an instant in GMT+8. */
const myLocal = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace(/[-:]/g, '');

describe('calendar feed (PGlite)', () => {
  let ctx: PayCtx;
  let token: string;
  const feedPath = (url: string) => new URL(url).pathname;
  const getFeed = (path: string, address = '10.77.0.1') => ctx.app.inject({ method: 'GET', url: path, remoteAddress: address });
  const create = (t = token) => ctx.app.inject({ method: 'POST', url: '/staff/calendar-feed', headers: auth(t) });

  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
    token = await adminToken(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('the staff routes need a staff token', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      for (const headers of [{}, auth('not-a-session')]) {
        const res = await ctx.app.inject({ method, url: '/staff/calendar-feed', headers });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ success: false, data: null, error: ErrorCode.UNAUTHORIZED });
      }
    }
  });

  it('creates a feed URL shown once; the feed is an iCalendar of the booked visits in GMT+8, not cached', async () => {
    const before = await ctx.app.inject({ method: 'GET', url: '/staff/calendar-feed', headers: auth(token) });
    expect(before.json().data).toEqual({ active: false, createdAt: null, url: null });

    const made = await create();
    expect(made.statusCode).toBe(200);
    const { url, createdAt, active } = made.json().data;
    expect(active).toBe(true);
    expect(url).toMatch(new RegExp(`^${ctx.baseUrl}/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
    expect(Date.parse(createdAt)).not.toBeNaN();
    const status = await ctx.app.inject({ method: 'GET', url: '/staff/calendar-feed', headers: auth(token) });
    expect(status.json().data).toEqual({ active: true, createdAt, url: null });
    const stored = JSON.stringify(await ctx.database.db.execute('SELECT * FROM calendar_feeds'));
    expect(stored).not.toContain(feedPath(url).slice(10, 53));

    const b = await bookPaid(ctx, 60, 'feed1@example.com');
    const slot = await slotRow(ctx, b.slotId);
    // The real URL over HTTP, as a calendar app fetches it.
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const ics = await res.text();
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    const lines = unfold(ics);
    expect(lines).toEqual(expect.arrayContaining(['TZID:Asia/Singapore', 'X-WR-TIMEZONE:Asia/Singapore', 'METHOD:PUBLISH']));
    expect(lines.some((l) => l.startsWith('PRODID:') && l.includes(brand.productName.replace(/,/g, '\\,')))).toBe(true);
    // Calendar properties come before the first component (RFC 5545 3.6).
    const calName = lines.findIndex((l) => l.startsWith('X-WR-CALNAME:'));
    expect(calName).toBeGreaterThan(0);
    expect(calName).toBeLessThan(lines.indexOf('BEGIN:VTIMEZONE'));
    expect(lines.indexOf('X-WR-TIMEZONE:Asia/Singapore')).toBeLessThan(lines.indexOf('BEGIN:VTIMEZONE'));
    const event = events(ics).find((e) => e.UID === invitationUid(b.reference))!;
    expect(event).toMatchObject({
      DTSTART: myLocal(slot.startAt),
      DTEND: myLocal(slot.endAt),
      // Who is assessed, for which year, where: the child (issue 24), the school and its address.
      SUMMARY: 'Assessment: Adam Firdaus\\, Form 1 (Seri Ilmu Private Secondary)',
      LOCATION: 'Seri Ilmu Private Secondary\\, 8 Jalan Setiakasih 5\\, Bukit Damansara\\, 50490 Kuala Lumpur',
      STATUS: 'CONFIRMED',
      SEQUENCE: '0',
    });
    expect(lines).toContain(`DTSTART;TZID=Asia/Singapore:${myLocal(slot.startAt)}`);
    // A mobile number stored as 10 digits: the feed writes it as the staff desk does (016-577 3086).
    const typed = (await ctx.database.db.select().from(payments).where(eq(payments.id, b.paymentId)))[0].visitorContactNo;
    expect(typed).toMatch(/^01\d{8}$/);
    const written = `${typed.slice(0, 3)}-${typed.slice(3, 6)} ${typed.slice(6)}`;
    expect(event.DESCRIPTION).toBe(
      `Visitor: Nur Aina\\nChild: Adam Firdaus\\nYear or grade applied for: Form 1\\nSchool: Seri Ilmu Private Secondary\\nContact number: ${written}\\nEmail: feed1@example.com\\nReference: ${b.reference}`,
    );
  });

  it('escapes commas, semicolons, backslashes and newlines in a visitor name and folds lines at 75 octets', async () => {
    const b = await bookPaid(ctx, 61, 'feed2@example.com');
    const name = 'Tan, Ah Kow; "Junior"\nLine two \\ Nurul Ain binti Abdullah — 陈大文 with a name long enough to fold twice over';
    // A booking made before the child was asked for (migration 0014): the title names the visitor.
    await ctx.database.db.update(payments).set({ visitorName: name, childName: null, childYear: null }).where(eq(payments.id, b.paymentId));
    const { url } = (await create()).json().data;
    const ics = (await getFeed(feedPath(url))).body;
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(ics).toMatch(/\r\n [^\r\n]/);
    const event = events(ics).find((e) => e.UID === invitationUid(b.reference))!;
    const escaped = 'Tan\\, Ah Kow\\; "Junior"\\nLine two \\\\ Nurul Ain binti Abdullah — 陈大文 with a name long enough to fold twice over';
    expect(event.SUMMARY).toBe(`Assessment: ${escaped} (Seri Ilmu Private Secondary)`);
    expect(event.DESCRIPTION.startsWith(`Visitor: ${escaped}\\nSchool:`)).toBe(true);
  });

  it('a moved visit shows at its new time with the same UID and a higher SEQUENCE; a cancelled one as STATUS:CANCELLED', async () => {
    const moved = await bookPaid(ctx, 62, 'feed3@example.com');
    const target = await insertSlot(ctx.database, 90);
    expect((await reschedule(ctx, moved.token, target.id)).statusCode).toBe(200);
    const called = await bookPaid(ctx, 63, 'feed4@example.com');
    expect((await cancel(ctx, called.token, 7500)).statusCode).toBe(200);

    const { url } = (await create()).json().data;
    const all = events((await getFeed(feedPath(url))).body);
    const movedEvents = all.filter((e) => e.UID === invitationUid(moved.reference));
    expect(movedEvents).toHaveLength(1);
    expect(movedEvents[0]).toMatchObject({ DTSTART: myLocal(target.startAt), STATUS: 'CONFIRMED', SEQUENCE: '1' });
    const cancelled = all.filter((e) => e.UID === invitationUid(called.reference));
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({ STATUS: 'CANCELLED', SEQUENCE: '1' });
  });

  it('lists booked demo slots without a payment (UID from the slot id) and leaves out visits over 30 days old', async () => {
    const demo = { status: 'booked' as const, visitorName: 'Demo Parent', visitorEmail: 'demo@example.com', visitorContactNo: '0123', selectedSchool: 'Demo School' };
    const recent = await insertSlotWith(ctx.database, -29 * 24, demo);
    const old = await insertSlotWith(ctx.database, -31 * 24, demo);
    const { url } = (await create()).json().data;
    const uids = events((await getFeed(feedPath(url))).body).map((e) => e.UID);
    const domain = brand.supportEmail.split('@')[1];
    expect(uids).toContain(`slot-${recent.id}@${domain}`);
    expect(uids).not.toContain(`slot-${old.id}@${domain}`);
  });

  it('regenerating ends the old URL at once; turning off ends the feed; each account has its own', async () => {
    const first = (await create()).json().data.url as string;
    expect((await getFeed(feedPath(first))).statusCode).toBe(200);
    const second = (await create()).json().data.url as string;
    expect(second).not.toBe(first);
    const gone = await getFeed(feedPath(first));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ success: false, data: null, message: CalendarFeedMessage.notFound, error: ErrorCode.NOT_FOUND });
    expect((await getFeed(feedPath(second))).statusCode).toBe(200);

    const other = await adminToken(ctx, STAFF_B);
    const theirs = (await create(other)).json().data.url as string;
    expect((await getFeed(feedPath(second))).statusCode).toBe(200);

    const off = await ctx.app.inject({ method: 'DELETE', url: '/staff/calendar-feed', headers: auth(token) });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toEqual({ active: false, createdAt: null, url: null });
    expect((await getFeed(feedPath(second))).statusCode).toBe(404);
    expect((await getFeed(feedPath(theirs))).statusCode).toBe(200);
    const status = await ctx.app.inject({ method: 'GET', url: '/staff/calendar-feed', headers: auth(token) });
    expect(status.json().data.active).toBe(false);
  });

  it("disabling an account ends its feed's URL", async () => {
    const other = await adminToken(ctx, { email: 'third@example.com', password: 'correct-horse-3' });
    const url = (await create(other)).json().data.url as string;
    expect((await getFeed(feedPath(url))).statusCode).toBe(200);
    const [{ id }] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'third@example.com'));
    const disabled = await ctx.app.inject({ method: 'POST', url: `/staff/accounts/${id}/disable`, headers: auth(token) });
    expect(disabled.statusCode).toBe(200);
    expect((await getFeed(feedPath(url))).statusCode).toBe(404);
  });

  it('unknown and malformed tokens answer 404 without data; past the limit an address gets 429 for them, never for a good feed', async () => {
    const good = (await create()).json().data.url as string;
    for (const path of ['/calendar/short.ics', `/calendar/${'x'.repeat(43)}.ics`, `/calendar/${'y'.repeat(300)}.ics`]) {
      const res = await getFeed(path, '10.88.0.1');
      expect(res.statusCode).toBe(path.length > 250 ? 400 : 404);
      expect(res.json().data).toBeNull();
      expect(res.body).not.toContain('BEGIN:VCALENDAR');
    }
    const guesser = '10.88.0.2';
    for (let i = 0; i < FEED_GUESS_LIMIT.limit; i++) expect((await getFeed(`/calendar/${'z'.repeat(43)}.ics`, guesser)).statusCode).toBe(404);
    expect((await getFeed(`/calendar/${'z'.repeat(43)}.ics`, guesser)).statusCode).toBe(429);
    // A colleague's calendar app behind the same address keeps its feed.
    expect((await getFeed(feedPath(good), guesser)).statusCode).toBe(200);
    expect((await getFeed(feedPath(good), '10.88.0.3')).statusCode).toBe(200);
  });
});

describe('calendar feed (PostgreSQL)', () => {
  let ctx: PayCtx;
  beforeAll(async () => {
    ctx = await startPaymentsApp('postgres');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('concurrent regenerates leave one feed row and exactly one working URL; bad tokens count in the database', async () => {
    const token = await adminToken(ctx);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => ctx.app.inject({ method: 'POST', url: '/staff/calendar-feed', headers: auth(token) })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    const urls = answers.map((a) => a.json().data.url as string);
    expect(new Set(urls).size).toBe(6);
    const codes = await Promise.all(urls.map(async (url) => (await fetch(url)).status));
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 404)).toHaveLength(5);
    const rows = (await ctx.database.db.execute('SELECT user_id FROM calendar_feeds')) as unknown as { rows: unknown[] };
    expect(rows.rows).toHaveLength(1);

    const guesses = await Promise.all(
      Array.from({ length: FEED_GUESS_LIMIT.limit + 5 }, () =>
        ctx.app.inject({ method: 'GET', url: `/calendar/${'q'.repeat(43)}.ics`, remoteAddress: '10.99.0.1' }),
      ),
    );
    expect(guesses.filter((g) => g.statusCode === 404)).toHaveLength(FEED_GUESS_LIMIT.limit);
    expect(guesses.filter((g) => g.statusCode === 429)).toHaveLength(5);
  });
});
