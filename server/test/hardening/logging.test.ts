import { sql } from 'drizzle-orm';
import { ErrorCode } from 'shared-api/contract';
import { loggerOptions, serializeError } from '../../src/base/logging';
import { auth, insertSlot, STAFF, adminToken, stopTestApp, type TestContext } from '../helpers';
import { initiateBody } from '../payments/support';
import { startHardeningApp, type Driver } from './routes';

// Real failing queries carrying a visitor's details, a hold token and a password hash, on both drivers: the log
// lines say which route and which constraint failed (SQL state, table) and carry none of the values.
jest.setTimeout(60_000);

const person = {
  visitorName: 'Siti Rahmah Binti Yusof',
  visitorEmail: 'siti.rahmah@example.com',
  visitorContactNo: '019 876 5432',
  selectedSchool: 'Seri Ilmu Private Secondary',
  childName: 'Nur Hana Binti Yusof',
  childYear: 'Form 3',
};
const NEW_STAFF = { email: 'new.staff.member@example.com', password: 'Another-Secret-9' };

type LogLine = { level: number; msg: string; route?: string; error?: string; err?: { type: string; message: string; stack: string; cause?: Record<string, unknown> } };

describe.each<Driver>(['pglite', 'postgres'])('logs on %s', (driver) => {
  let ctx: TestContext;
  const lines: string[] = [];
  const parsed = () => lines.map((line) => JSON.parse(line) as LogLine);

  beforeAll(async () => {
    ctx = await startHardeningApp(driver, { logger: { ...loggerOptions('info'), stream: { write: (line: string) => void lines.push(line) } } });
  });
  afterAll(() => stopTestApp(ctx));

  it('database errors name the route, SQL state, table and constraint, and no visitor detail, token, password or hash', async () => {
    const token = await adminToken(ctx);
    const paying = await insertSlot(ctx.database, 30);
    const reserved = await ctx.app.inject({ method: 'POST', url: `/slot/${paying.id}/reserve`, payload: {} });
    expect(reserved.statusCode).toBe(200);
    const holdToken: string = reserved.json().data.token;
    const booked = await insertSlot(ctx.database, 31);

    // The table then refuses every new or changed row: the next write to it fails inside PostgreSQL / PGlite.
    const refuseWrites = (table: string) => ctx.database.db.execute(sql.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_log_test CHECK (false) NOT VALID`));
    await refuseWrites('payments');
    await refuseWrites('users');
    const initiate = await ctx.app.inject({
      method: 'POST',
      url: '/api/payment/initiate',
      headers: { cookie: `session=${token}` },
      payload: initiateBody(paying, { ...person, holdToken }),
    });
    const register = await ctx.app.inject({ method: 'POST', url: '/auth/register', headers: auth(token), payload: NEW_STAFF });
    await refuseWrites('slots');
    const book = await ctx.app.inject({ method: 'PUT', url: `/slot/${booked.id}`, headers: auth(token), payload: person });
    for (const res of [initiate, register, book]) expect(res.json()).toMatchObject({ success: false, error: ErrorCode.INTERNAL });

    const text = lines.join('');
    for (const secret of [
      person.visitorName,
      'Rahmah',
      person.visitorEmail,
      person.visitorContactNo,
      '0198765432',
      holdToken,
      token,
      STAFF.password,
      NEW_STAFF.email,
      NEW_STAFF.password,
      'scrypt$',
    ])
      expect(text).not.toContain(secret);

    const failures = parsed().filter((line) => line.level >= 50);
    const failed = (route: string, table: string) =>
      expect(failures).toContainEqual(
        expect.objectContaining({
          msg: 'unexpected error',
          route,
          error: ErrorCode.INTERNAL,
          err: expect.objectContaining({
            message: expect.stringMatching(new RegExp(`^Failed query: [\\s\\S]*"?${table}"?`)),
            cause: expect.objectContaining({ type: 'DatabaseError', code: '23514', table, constraint: `${table}_log_test` }),
          }),
        }),
      );
    failed('POST /api/payment/initiate', 'payments');
    failed('POST /auth/register', 'users');
    failed('PUT /slot/:id', 'slots');
    // The driver's own fields that carry values never reach the line.
    for (const line of failures) expect(Object.keys(line.err?.cause ?? {})).not.toEqual(expect.arrayContaining(['detail']));
  });

  it('redacts credentials and visitor fields wherever a log call puts them', () => {
    lines.length = 0;
    ctx.app.log.info(
      {
        req: { headers: { authorization: 'Bearer secret-bearer', cookie: 'sid=secret-cookie', 'x-payment-key': 'secret-payment-key' } },
        headers: { authorization: 'Bearer secret-bearer-2', 'x-payment-key': 'secret-payment-key-2' },
        body: { password: 'secret-password', visitorEmail: 'secret@example.com', holdToken: 'secret-hold' },
        visitorName: 'Secret Name',
        err: 'Failed query: select 1\nparams: secret-param,another@example.com',
      },
      'something to log',
    );
    expect(lines.join('')).not.toMatch(/secret/);
    expect(parsed()[0]).toMatchObject({ body: { password: '[redacted]' }, err: 'Failed query: select 1', msg: 'something to log' });
  });
});

describe('serializeError', () => {
  it('keeps what failed and drops the values PostgreSQL echoes in messages and in detail / where', () => {
    const cause = Object.assign(new Error('value "2147483648" is out of range for type integer'), {
      name: 'error',
      severity: 'ERROR',
      code: '22003',
      routine: 'pg_strtoint32',
      detail: 'Failing row contains (Siti).',
      where: "unnamed portal parameter $1 = '2147483648'",
      parameters: ['Siti'],
    });
    const err = Object.assign(new Error('Failed query: select * from "slots" where "id" = $1\nparams: 2147483648,Siti'), { cause, params: ['Siti'] });
    const out = serializeError(err);
    expect(JSON.stringify(out)).not.toMatch(/Siti|2147483648/);
    expect(out).toMatchObject({
      message: 'Failed query: select * from "slots" where "id" = $1',
      stack: expect.stringMatching(/^Error: Failed query: select \* from "slots" where "id" = \$1\n\s+at /),
      cause: { type: 'DatabaseError', code: '22003', routine: 'pg_strtoint32', message: 'value "[value]" is out of range for type integer' },
    });
  });
});
