import { sql } from 'drizzle-orm';
import {
  ErrorCode,
  SlotAddMessage,
  SlotPlanMessage,
  TIMEZONE,
  latestSlotDateInMY,
  planSlots,
  todayInMY,
} from 'shared-api/contract';
import { dayjs } from 'shared-api/zoned-dayjs';
import { buildApp, type App } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/base/db/connection';
import { migrate } from '../src/base/db/migrate';
import { slots } from '../src/slots/tables';
import {
  auth,
  clearSlots,
  createThrowawayPostgres,
  queryRows,
  snapshotSlots,
  startTestApp,
  staffToken,
  stopTestApp,
  type TestContext,
} from './helpers';

jest.setTimeout(60_000);

/** A Monday at least 2 days ahead (GMT+8), plus `weeks` weeks, as YYYY-MM-DD. */
function nextMonday(weeks = 0): string {
  let d = dayjs.tz(todayInMY(), 'YYYY-MM-DD', TIMEZONE).add(2, 'day');
  while (d.day() !== 1) d = d.add(1, 'day');
  return d.add(weeks, 'week').format('YYYY-MM-DD');
}
const isWeekendDay = (day: string) => [0, 6].includes(dayjs.tz(day, 'YYYY-MM-DD', TIMEZONE).day());
const plus = (day: string, n: number) => dayjs.tz(day, 'YYYY-MM-DD', TIMEZONE).add(n, 'day').format('YYYY-MM-DD');
const at = (day: string, time: string) => dayjs.tz(`${day} ${time}`, 'YYYY-MM-DD HH:mm', TIMEZONE).toDate();

async function insertAt(database: DatabaseHandle, day: string, time: string, minutes = 30) {
  const start = at(day, time);
  const [row] = await database.db.insert(slots).values({ startAt: start, endAt: new Date(start.getTime() + minutes * 60_000) }).returning();
  return row;
}

describe('slot planning routes (PGlite)', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await startTestApp();
    token = await staffToken(ctx);
  });
  afterAll(() => stopTestApp(ctx));
  beforeEach(() => clearSlots(ctx.database));

  const post = (url: string, payload: unknown, headers: Record<string, string> = auth(token)) =>
    ctx.app.inject({ method: 'POST', url, payload: payload as object, headers });
  const addMany = (payload: unknown) => post('/slot/add-many', payload);
  const preview = (payload: unknown) => post('/slot/add-many/preview', payload);

  it.each(['/slot/add-many', '/slot/add-many/preview'])('%s needs a staff token and changes nothing without one', async (url) => {
    const monday = nextMonday();
    for (const headers of [{}, auth('forged')]) {
      const res = await post(url, { fromDate: monday, toDate: monday, startTimes: ['08:30'] }, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, error: ErrorCode.UNAUTHORIZED });
    }
    expect(await ctx.database.db.select().from(slots)).toEqual([]);
  });

  it('creates several times a day, Monday to Friday by default, over three weeks in one request, with an audit record', async () => {
    const monday = nextMonday();
    const body = { fromDate: monday, toDate: plus(monday, 20), startTimes: ['14:00', '08:30', '10:00'] };
    const shown = await preview(body);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data.refused).toEqual([]);
    expect(shown.json().data.toCreate).toHaveLength(45);
    expect(shown.json().data.toCreate.slice(0, 4)).toEqual([
      { date: monday, startTime: '08:30', endTime: '09:00' },
      { date: monday, startTime: '10:00', endTime: '10:30' },
      { date: monday, startTime: '14:00', endTime: '14:30' },
      { date: plus(monday, 1), startTime: '08:30', endTime: '09:00' },
    ]);
    expect(await ctx.database.db.select().from(slots)).toEqual([]);

    const res = await addMany(body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, message: 'Created 45 slot(s)', data: { count: 45 } });
    const created = res.json().data.created as Array<{ id: number; date: string; startTime: string; endTime: string }>;
    expect(created[0]).toMatchObject({ date: `${monday}T08:30:00+08:00`, startTime: '08:30', endTime: '09:00', status: 'available', isBooked: false });
    const rows = await ctx.database.db.select().from(slots);
    expect(rows).toHaveLength(45);
    // No Saturday or Sunday, every slot 30 minutes.
    for (const row of rows) {
      expect([0, 6]).not.toContain(dayjs(row.startAt).tz(TIMEZONE).day());
      expect(row.endAt.getTime() - row.startAt.getTime()).toBe(30 * 60_000);
    }
    const audit = await queryRows<{ action: string; actor: string; detail: { count: number } }>(
      ctx.database,
      sql`SELECT action, actor, detail FROM audit_log WHERE action = 'slot_created' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit[0]).toMatchObject({ action: 'slot_created', actor: 'staff@example.com', detail: { count: 45 } });
  });

  it('plans only the chosen weekdays', async () => {
    const monday = nextMonday();
    const res = await addMany({ fromDate: monday, toDate: plus(monday, 13), weekdays: [1, 3], startTimes: ['09:00'] });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.created.map((s: { date: string }) => s.date.slice(0, 10))).toEqual([monday, plus(monday, 2), plus(monday, 7), plus(monday, 9)]);
  });

  it("warns about the state's public holidays on the planned days and skips them on request (date-holidays, brand.config.json)", async () => {
    // Independence Day (31 Aug) and Malaysia Day (16 Sep) are 16 days apart, so at least one is a weekday; next year's.
    const year = Number(todayInMY().slice(0, 4)) + 1;
    const body = { fromDate: `${year}-08-25`, toDate: `${year}-09-20`, startTimes: ['09:00'] };
    const listed = (await preview(body)).json().data;
    const named = listed.holidays.map((h: { date: string; name: string }) => `${h.date} ${h.name}`).join('; ');
    const national = [`${year}-08-31`, `${year}-09-16`].filter((d) => !isWeekendDay(d));
    expect(national.length).toBeGreaterThan(0);
    for (const day of national) expect(named).toMatch(new RegExp(`${day} (Independence Day|Malaysia Day)`));
    expect(listed.holidays.every((h: { skipped: boolean }) => !h.skipped)).toBe(true);
    // Not skipped: the holidays get slots like any weekday.
    for (const day of national) expect(listed.toCreate.map((i: { date: string }) => i.date)).toContain(day);

    const skipping = (await preview({ ...body, skipHolidays: true })).json().data;
    expect(skipping.holidays.map((h: { date: string }) => h.date)).toEqual(listed.holidays.map((h: { date: string }) => h.date));
    expect(skipping.holidays.every((h: { skipped: boolean }) => h.skipped)).toBe(true);
    const holidayDays = new Set(skipping.holidays.map((h: { date: string }) => h.date));
    expect(skipping.toCreate.some((i: { date: string }) => holidayDays.has(i.date))).toBe(false);
    expect(skipping.toCreate).toHaveLength(listed.toCreate.length - holidayDays.size);

    const created = await addMany({ ...body, skipHolidays: true });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.count).toBe(skipping.toCreate.length);
    const days = (await queryRows<{ day: string }>(ctx.database, sql`SELECT to_char(start_at AT TIME ZONE 'Asia/Kuala_Lumpur', 'YYYY-MM-DD') AS day FROM slots`)).map((r) => r.day);
    for (const day of holidayDays) expect(days).not.toContain(day);
  });

  it('refuses the whole request, listing every refused slot and why, and creates nothing', async () => {
    const monday = nextMonday();
    await insertAt(ctx.database, monday, '10:00');
    await insertAt(ctx.database, plus(monday, 1), '08:45');
    // A deleted slot overlaps nothing.
    await ctx.database.db.insert(slots).values({ startAt: at(plus(monday, 2), '08:30'), endAt: at(plus(monday, 2), '09:00'), deletedAt: new Date() });
    const before = await snapshotSlots(ctx.database);
    const body = { fromDate: plus(monday, -2), toDate: plus(monday, 2), weekdays: [0, 1, 2, 3, 4, 5, 6], startTimes: ['08:30', '10:00', '10:15'] };
    const res = await addMany(body);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, error: ErrorCode.SLOT_EXISTS, message: SlotPlanMessage.refused });
    const { refused, toCreate } = res.json().data;
    expect(refused).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ date: plus(monday, -2), startTime: '08:30', reason: 'weekend', message: SlotAddMessage.weekend }),
        expect.objectContaining({ date: monday, startTime: '10:00', reason: 'overlapsExisting', message: SlotAddMessage.duplicate }),
        expect.objectContaining({ date: monday, startTime: '10:15', reason: 'overlapsExisting', message: SlotPlanMessage.overlapsExisting('10:00 AM', '10:30 AM') }),
        expect.objectContaining({ date: plus(monday, 1), startTime: '08:30', endTime: '09:00', reason: 'overlapsExisting', message: SlotPlanMessage.overlapsExisting('8:45 AM', '9:15 AM') }),
        expect.objectContaining({ date: plus(monday, 1), startTime: '10:15', reason: 'overlapsRequested', message: SlotPlanMessage.overlapsRequested('10:00 AM', '10:30 AM') }),
      ]),
    );
    // Saturday and Sunday: 6; Monday: 10:00 and 10:15; Tuesday: 08:30 and 10:15; Wednesday: 10:15.
    expect(refused).toHaveLength(11);
    expect(toCreate).toContainEqual({ date: plus(monday, 2), startTime: '08:30', endTime: '09:00' });
    expect(await snapshotSlots(ctx.database)).toBe(before);
    // The preview answers the same without writing.
    const shown = await preview(body);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data).toEqual(res.json().data);
    expect(await snapshotSlots(ctx.database)).toBe(before);
  });

  it('refuses today and past days (slots start from tomorrow, GMT+8)', async () => {
    const today = todayInMY();
    const res = await addMany({ fromDate: plus(today, -7), toDate: today, weekdays: [0, 1, 2, 3, 4, 5, 6], startTimes: ['23:00'] });
    expect(res.statusCode).toBe(409);
    const { refused, toCreate } = res.json().data;
    expect(toCreate).toEqual([]);
    expect(refused).toHaveLength(8);
    for (const r of refused) expect(r).toMatchObject(isWeekendDay(r.date) ? { reason: 'weekend' } : { reason: 'tooEarly', message: SlotAddMessage.tooEarly });
    expect(await ctx.database.db.select().from(slots)).toEqual([]);
  });

  it.each([
    ['no times', { startTimes: [] }, SlotPlanMessage.noTimes],
    ['13 times', { startTimes: Array.from({ length: 13 }, (_, i) => `${String(8 + i).padStart(2, '0')}:00`) }, SlotPlanMessage.tooManyTimes],
    ['a 12-hour time', { startTimes: ['8:30 AM'] }, SlotPlanMessage.badTime],
    ['a time running past midnight', { startTimes: ['23:45'] }, SlotPlanMessage.timeTooLate],
    ['an end before the start', { toDate: '2030-01-01' }, SlotPlanMessage.endBeforeStart],
    ['a range of more than 92 days', { toDate: '2030-06-01' }, SlotPlanMessage.rangeTooLong],
    ['an impossible date', { fromDate: '2030-02-30' }, SlotAddMessage.badDate],
    ['a weekday out of range', { weekdays: [7] }, SlotPlanMessage.badWeekday],
  ])('refuses %s with a clear 400 and creates nothing', async (_name, change, message) => {
    const body = { fromDate: '2030-01-07', toDate: '2030-01-11', startTimes: ['08:30'], ...change };
    for (const url of ['/slot/add-many', '/slot/add-many/preview']) {
      const res = await post(url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, data: null, error: ErrorCode.VALIDATION_ERROR, message: expect.stringContaining(message) });
    }
    expect(await ctx.database.db.select().from(slots)).toEqual([]);
  });

  it('refuses a range with no chosen weekday in it with a 400', async () => {
    const monday = nextMonday();
    const res = await addMany({ fromDate: monday, toDate: monday, weekdays: [2], startTimes: ['08:30'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: ErrorCode.VALIDATION_ERROR, message: SlotPlanMessage.nothingToCreate });
  });

  it('refuses days more than two years ahead, day by day in the preview and in add-many, and creates nothing', async () => {
    const latest = latestSlotDateInMY();
    const body = { fromDate: plus(latest, -6), toDate: plus(latest, 7), weekdays: [0, 1, 2, 3, 4, 5, 6], startTimes: ['08:30'] };
    const shown = (await preview(body)).json().data;
    const res = await addMany(body);
    expect(res.statusCode).toBe(409);
    expect(res.json().data).toEqual(shown);
    const tooFar = shown.refused.filter((r: { reason: string }) => r.reason === 'tooFar');
    expect(tooFar.map((r: { date: string }) => r.date)).toEqual(Array.from({ length: 7 }, (_, i) => plus(latest, i + 1)).filter((d) => !isWeekendDay(d)));
    for (const r of tooFar) expect(r.message).toBe(SlotAddMessage.tooFar);
    // The days up to the last one are fine: only the refusals stop the plan.
    expect(shown.toCreate.map((i: { date: string }) => i.date)).toEqual(Array.from({ length: 7 }, (_, i) => plus(latest, i - 6)).filter((d) => !isWeekendDay(d)));
    const far = (await preview({ fromDate: '9999-12-01', toDate: '9999-12-31', startTimes: ['08:30'] })).json().data;
    expect(far.toCreate).toEqual([]);
    expect(new Set(far.refused.map((r: { reason: string }) => r.reason))).toEqual(new Set(['tooFar']));
    expect(await ctx.database.db.select().from(slots)).toEqual([]);
  });

  it('/slot/add and /slot/add-many agree on the last day and the latest start of a day', async () => {
    const latest = latestSlotDateInMY();
    let lastWeekday = latest;
    while (isWeekendDay(lastWeekday)) lastWeekday = plus(lastWeekday, -1);
    let firstTooFar = plus(latest, 1);
    while (isWeekendDay(firstTooFar)) firstTooFar = plus(firstTooFar, 1);
    const end = (time: string) => dayjs.tz(`2030-01-01 ${time}`, 'YYYY-MM-DD HH:mm', TIMEZONE).add(30, 'minute').format('HH:mm');
    const outcomes: string[] = [];
    for (const date of [lastWeekday, firstTooFar])
      for (const time of ['23:29', '23:30', '23:59']) {
        const single = await post('/slot/add', { date, startTime: time, endTime: end(time) });
        await clearSlots(ctx.database);
        const many = await addMany({ fromDate: date, toDate: date, startTimes: [time] });
        await clearSlots(ctx.database);
        // A 400 from add-many's body check names the field first ("startTimes.0: ..."): the rule's words follow.
        const said = (res: typeof single) =>
          res.statusCode === 201 ? 'created' : String(res.json().data?.refused?.[0]?.message ?? res.json().message).replace(/^startTimes\.\d+: /, '');
        expect([date, time, said(many)]).toEqual([date, time, said(single)]);
        outcomes.push(`${date === lastWeekday ? 'last day' : 'after it'} ${time} ${said(single)}`);
      }
    expect(outcomes).toEqual([
      'last day 23:29 created',
      `last day 23:30 ${SlotAddMessage.timeTooLate}`,
      `last day 23:59 ${SlotAddMessage.timeTooLate}`,
      `after it 23:29 ${SlotAddMessage.tooFar}`,
      `after it 23:30 ${SlotAddMessage.timeTooLate}`,
      `after it 23:59 ${SlotAddMessage.timeTooLate}`,
    ]);
  });

  it('the single create refuses an overlap too, keeping the duplicate message for the same start', async () => {
    const monday = nextMonday();
    await insertAt(ctx.database, monday, '10:00');
    const add = (startTime: string, endTime: string) => post('/slot/add', { date: monday, startTime, endTime });
    const same = await add('10:00', '10:30');
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({ error: ErrorCode.SLOT_EXISTS, message: SlotAddMessage.duplicate });
    const overlapping = await add('09:45', '10:15');
    expect(overlapping.statusCode).toBe(409);
    expect(overlapping.json()).toMatchObject({ error: ErrorCode.SLOT_EXISTS, message: SlotPlanMessage.overlapsExisting('10:00 AM', '10:30 AM') });
    expect(await ctx.database.db.select().from(slots)).toHaveLength(1);
    // Touching is not overlapping.
    expect((await add('09:30', '10:00')).statusCode).toBe(201);
    expect((await add('10:30', '11:00')).statusCode).toBe(201);
  });
});

describe('planSlots', () => {
  const now = new Date('2030-01-01T04:00:00Z'); // Tuesday 1 January 2030, 12:00 GMT+8
  it('skips days off the weekday list, sorts the times and checks each against live and requested slots', () => {
    const plan = planSlots(
      { fromDate: '2030-01-01', toDate: '2030-01-06', startTimes: ['09:00', '08:40'] },
      [{ startMs: at('2030-01-03', '09:20').getTime(), endMs: at('2030-01-03', '09:50').getTime() }],
      now,
    );
    expect(plan.toCreate).toEqual([
      { date: '2030-01-02', startTime: '08:40', endTime: '09:10' },
      { date: '2030-01-03', startTime: '08:40', endTime: '09:10' },
      { date: '2030-01-04', startTime: '08:40', endTime: '09:10' },
    ]);
    expect(plan.refused.map((r) => `${r.date} ${r.startTime} ${r.reason}`)).toEqual([
      '2030-01-01 08:40 tooEarly',
      '2030-01-01 09:00 tooEarly',
      '2030-01-02 09:00 overlapsRequested',
      '2030-01-03 09:00 overlapsExisting',
      '2030-01-04 09:00 overlapsRequested',
    ]);
  });
});

describe('two API processes on one PostgreSQL racing for overlapping times', () => {
  const ROUNDS = 8;
  let database: [DatabaseHandle, DatabaseHandle];
  let apps: [App, App];
  let drop: () => Promise<void>;
  let token: string;

  beforeAll(async () => {
    const throwaway = await createThrowawayPostgres('slot_planning_race');
    drop = throwaway.drop;
    const a = await openDatabase({ driver: 'postgres', url: throwaway.url, poolSize: 4 });
    await migrate(a);
    const b = await openDatabase({ driver: 'postgres', url: throwaway.url, poolSize: 4 });
    database = [a, b];
    const config = { ...loadConfig({}), loginRateLimitPerMinute: 1000 };
    apps = [await buildApp({ database: a, config, logger: false }), await buildApp({ database: b, config, logger: false })];
    await Promise.all(apps.map((app) => app.ready()));
    token = await staffToken({ app: apps[0], database: a, config });
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    for (const d of database ?? []) await d.close();
    await drop?.();
  });

  const send = (app: App, url: string, payload: object) => app.inject({ method: 'POST', url, payload, headers: auth(token) });

  it('add-many against add-many: exactly one creates, the other is refused and creates nothing', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const monday = nextMonday(round);
      const [first, second] = await Promise.all([
        send(apps[0], '/slot/add-many', { fromDate: monday, toDate: plus(monday, 4), startTimes: ['08:30', '13:00'] }),
        send(apps[1], '/slot/add-many', { fromDate: plus(monday, 2), toDate: plus(monday, 2), startTimes: ['08:45'] }),
      ]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409]);
      const rows = await queryRows<{ n: number }>(
        database[0],
        sql`SELECT count(*)::int AS n FROM slots a JOIN slots b ON a.id < b.id AND a.start_at < b.end_at AND a.end_at > b.start_at
            WHERE a.deleted_at IS NULL AND b.deleted_at IS NULL`,
      );
      expect(rows[0].n).toBe(0);
    }
    expect((await queryRows<{ n: number }>(database[0], sql`SELECT count(*)::int AS n FROM slots`))[0].n).toBeGreaterThanOrEqual(ROUNDS);
  });

  it('single create against add-many: exactly one of them creates', async () => {
    await clearSlots(database[0]);
    for (let round = 0; round < ROUNDS; round++) {
      const monday = nextMonday(round);
      const [many, single] = await Promise.all([
        send(apps[0], '/slot/add-many', { fromDate: monday, toDate: monday, startTimes: ['10:00', '11:00'] }),
        send(apps[1], '/slot/add', { date: monday, startTime: '10:15', endTime: '10:45' }),
      ]);
      expect([many.statusCode, single.statusCode].sort()).toEqual([201, 409]);
      const live = await queryRows<{ n: number }>(
        database[0],
        sql`SELECT count(*)::int AS n FROM slots WHERE start_at >= ${at(monday, '00:00')} AND start_at < ${at(monday, '23:59')}`,
      );
      expect(live[0].n).toBe(many.statusCode === 201 ? 2 : 1);
    }
  });
});
