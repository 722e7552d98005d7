// Issue 40 on PostgreSQL: two API instances (each its own pool, as two processes would be) marking one visit at once.
// The visit's row key decides: opposite marks give one 200 and one 409; the same mark twice is recorded and audited once.
import { eq } from 'drizzle-orm';
import { auditLog } from '../../src/audit/table';
import { openDatabase } from '../../src/base/db/connection';
import { visitAttendance } from '../../src/visit-day/tables';
import { auth, createThrowawayPostgres, STAFF, staffToken, startTestApp, stopTestApp, type TestContext } from '../helpers';
import { at, paidBooking } from './support';

jest.setTimeout(90_000);

describe('two API instances mark one visit at once (PostgreSQL)', () => {
  const apps: TestContext[] = [];
  const tokens: string[] = [];
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const throwaway = await createThrowawayPostgres('visit_day');
    drop = throwaway.drop;
    for (let i = 0; i < 2; i++) apps.push(await startTestApp({}, await openDatabase({ driver: 'postgres', url: throwaway.url, poolSize: 3 })));
    tokens.push(await staffToken(apps[0]));
    const login = await apps[1].app.inject({ method: 'POST', url: '/auth/login', payload: STAFF });
    tokens.push(login.json().data.token);
    // Both clocks after the visits' starts, so both marks are allowed.
    for (const { app } of apps) app.visitDay.now = () => at(16);
  });
  afterAll(async () => {
    for (const ctx of apps) await stopTestApp(ctx);
    await drop?.();
  });

  const markBoth = (reference: string, start: string, states: [string, string]) =>
    Promise.all(
      apps.map(({ app }, i) =>
        app.inject({ method: 'POST', url: `/staff/visits/${reference}/attendance`, headers: auth(tokens[i]), payload: { start, state: states[i] } }),
      ),
    );
  const rowsOf = async (reference: string) => ({
    marks: await apps[0].database.db.select().from(visitAttendance).where(eq(visitAttendance.reference, reference)),
    audits: await apps[0].database.db.select().from(auditLog).where(eq(auditLog.target, reference)),
  });

  it('Arrived on one and No-show on the other: one wins, the other is 409, one row and one audit record', async () => {
    for (let round = 0; round < 5; round++) {
      const visit = await paidBooking(apps[0].database, `race${round}`, at(9 + round));
      const answers = await markBoth(visit.reference, visit.start, ['arrived', 'noShow']);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      const { marks, audits } = await rowsOf(visit.reference);
      const winner = answers.find((a) => a.statusCode === 200)!.json().data.attendance.state;
      expect(marks.map((m) => m.state)).toEqual([winner]);
      expect(audits.map((a) => a.action)).toEqual([winner === 'arrived' ? 'visit_arrived' : 'visit_no_show']);
    }
  });

  it('the same mark on both at once: both answer it, recorded and audited once', async () => {
    const visit = await paidBooking(apps[0].database, 'same', at(15));
    const answers = await markBoth(visit.reference, visit.start, ['noShow', 'noShow']);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(new Set(answers.map((a) => a.json().data.attendance.at)).size).toBe(1);
    const { marks, audits } = await rowsOf(visit.reference);
    expect(marks).toHaveLength(1);
    expect(audits.map((a) => a.action)).toEqual(['visit_no_show']);
  });
});
