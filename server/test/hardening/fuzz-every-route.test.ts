import fc from 'fast-check';
import { ErrorCode } from 'shared-api/contract';
import { SANDBOX_SIGNATURE_HEADER, SANDBOX_TIMESTAMP_HEADER } from '../../src/payments/gateways/sandbox';
import { auth, insertSlot, STAFF, adminToken, stopTestApp, type TestContext } from '../helpers';
import { initiateBody } from '../payments/support';
import { discoverRoutes, snapshotAllTables, startHardeningApp, type DiscoveredRoute, type Driver, type JsonSchema } from './routes';

// Malformed input at every route the server has (found from its router, so new routes are fuzzed too), on PGlite and
// on the real PostgreSQL (which refuses NUL in text where PGlite may not): never a 5xx, never a changed row, and a 400
// VALIDATION_ERROR for NUL, unpaired surrogates, malformed percent-encoding, out-of-range integers and over-long text.
jest.setTimeout(180_000);

const MIN_CASES_PER_DRIVER = 300;
const CALLBACK_PATH = '/api/payment/callback';
/** The gateway's webhook (CHIP): raw bytes checked by the webhook's own key, like the callback. */
const GATEWAY_WEBHOOK_PATH = '/api/payment/webhook';
const WHATSAPP_WEBHOOK_PATH = '/api/whatsapp/webhook';

type Case = { label: string; method: string; url: string; headers?: Record<string, string>; payload?: string; expect: 400 | '4xx' };

/** Text PostgreSQL cannot store, or that no field allows: NUL, unpaired surrogates, and more than any field's maximum. */
const BAD_TEXT = ['a\u0000b', '\u0000', 'x\uD800', '\uDC00y', 'ok\uDBFF', 'x'.repeat(60_000)];
/** Out of int4 range, unsafe, or absurd for an id, a fee or minutes. */
const BAD_INTEGERS = [2_147_483_648, -2_147_483_649, Number.MAX_SAFE_INTEGER + 2, 1e308, -1];
/**
 * Path or query text as sent on the wire: encoded NUL, surrogates encoded as UTF-8 (CESU-8), overlong and broken
 * escapes, a raw NUL, too long. (A raw unpaired surrogate cannot be sent: HTTP carries bytes, inject sends U+FFFD.)
 */
const BAD_URL_TEXT = ['%00', 'a%00b', '%ED%A0%80', '%ED%B0%80', '%C0%80', '%', '%zz', '%E0%A4%A', 'a\u0000b', 'x'.repeat(5000)];
const BAD_URL_INTEGERS = ['2147483648', '99999999999999999999', '-1', '0', '1e400', '1.5', 'NaN'];

const nextWeekday = (): string => {
  const day = new Date(Date.now() + 8 * 86_400_000 + 8 * 3_600_000);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
};

describe.each<Driver>(['pglite', 'postgres'])('every route refuses malformed input on %s', (driver) => {
  let ctx: TestContext;
  let token: string;
  let known: Record<string, unknown>;

  beforeAll(async () => {
    ctx = await startHardeningApp(driver);
    token = await adminToken(ctx);
    const available = await insertSlot(ctx.database, 30);
    await insertSlot(ctx.database, 31, { status: 'booked', visitorName: 'Nur Aina', visitorEmail: 'aina@example.com', visitorContactNo: '0123456789' });
    // A held slot with its payment, session and hold rows: the snapshot covers them too.
    const paying = await insertSlot(ctx.database, 32);
    const initiated = await ctx.app.inject({ method: 'POST', url: '/api/payment/initiate', payload: initiateBody(paying) });
    if (initiated.statusCode !== 200) throw new Error(`initiate: ${initiated.body}`);
    const session = initiated.json().data.paymentSession;
    const valid = initiateBody(available);
    const holdToken = 'h'.repeat(43);
    // A valid value for each field name the API uses, so a case's one malformed field is its only fault.
    known = {
      ...valid,
      holdToken,
      token: holdToken,
      id: available.id,
      slotId: available.id,
      bookingId: available.id,
      paymentId: session.paymentId,
      reference: session.clientReference,
      school: valid.selectedSchool,
      email: STAFF.email,
      password: STAFF.password,
      username: 'fuzz',
      date: nextWeekday(),
      startTime: '08:30',
      endTime: '09:00',
      minutes: 15,
      deletedAt: new Date().toISOString(),
      action: 'pay',
      method: 'fpx',
      currency: 'MYR',
    };
  });
  afterAll(() => stopTestApp(ctx));

  /** A value the field accepts: the known one for its name, else one built from its schema. */
  const validValue = (name: string, schema: JsonSchema): unknown => {
    if (name in known) return schema.type === 'string' || schema.anyOf ? String(known[name]) : known[name];
    if (schema.enum) return schema.enum[0];
    if (schema.default !== undefined) return schema.default;
    if (schema.type === 'integer' || schema.type === 'number') return Math.max(1, schema.minimum ?? 1);
    if (schema.type === 'boolean') return true;
    return schema.format === 'email' ? 'fuzz@example.com' : 'ab';
  };
  const isInteger = (schema: JsonSchema) => schema.type === 'integer' || !!schema.anyOf?.some((s) => s.type === 'integer');

  function casesFor(route: DiscoveredRoute): Case[] {
    const cases: Case[] = [];
    const headers = { ...auth(token), 'content-type': 'application/json' };
    const pathWith = (name: string, raw: string) =>
      route.path.replace(/:(\w+)/g, (_all, param: string) => (param === name ? raw : encodeURIComponent(String(validValue(param, route.parameters.find((p) => p.name === param)!.schema)))));
    const basePath = pathWith('', '');
    const add = (label: string, url: string, extra: Partial<Case> = {}) =>
      cases.push({ label: `${route.method} ${route.path} ${label}`, method: route.method, url, headers, expect: 400, ...extra });

    for (const p of route.parameters) {
      const values = [...BAD_URL_TEXT, ...(isInteger(p.schema) ? BAD_URL_INTEGERS : [])];
      for (const raw of values) {
        const label = `${p.in} ${p.name}=${JSON.stringify(raw.slice(0, 24))}`;
        if (p.in === 'path') add(label, pathWith(p.name, raw));
        else add(label, `${basePath}?${p.name}=${raw}`);
      }
    }
    // Any route, documented query or not: forbidden text in an unknown parameter's name or value.
    for (const raw of BAD_URL_TEXT.slice(0, -1)) add(`query q=${JSON.stringify(raw)}`, `${basePath}?q=${raw}`);
    add('query name %00', `${basePath}?a%00b=1`);

    // WhatsApp's signed webhook: the same, with the platform's signature header.
    if (route.path === WHATSAPP_WEBHOOK_PATH && route.method === 'POST') {
      for (const value of ['sha256=' + 'x'.repeat(5000), 'sha256=zz', '', 'a\u00ffb'])
        add(`signature ${JSON.stringify(value.slice(0, 12))}`, basePath, {
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': value },
          payload: '{"object":"whatsapp_business_account","entry":[{"changes":[{"value":{"statuses":[{"id":"x\\u0000"}]}}]}]}',
          expect: '4xx',
        });
      return cases;
    }
    // The signed callback's and webhook's body is raw bytes checked by its signature: only its address and headers are fuzzed.
    if (route.path === CALLBACK_PATH || route.path === GATEWAY_WEBHOOK_PATH) {
      for (const value of ['sha256=' + 'x'.repeat(5000), 'sha256=zz', '', 'a\u00ffb'])
        add(`signature ${JSON.stringify(value.slice(0, 12))}`, basePath, {
          headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: value, [SANDBOX_TIMESTAMP_HEADER]: '99999999999999999999' },
          payload: '{"id":"evt_1","type":"checkout.paid","data":{"session_id":"x\\u0000"}}',
          expect: '4xx',
        });
      return cases;
    }
    if (route.method !== 'POST' && route.method !== 'PUT') return cases;

    const properties = route.body?.properties ?? {};
    const baseline = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, validValue(name, schema)]));
    const send = (label: string, body: unknown, extra: Partial<Case> = {}) => add(label, basePath, { payload: JSON.stringify(body), ...extra });
    for (const [name, schema] of Object.entries(properties)) {
      for (const bad of BAD_TEXT) send(`body ${name}=${JSON.stringify(bad.slice(0, 12))}`, { ...baseline, [name]: bad });
      if (isInteger(schema)) for (const bad of BAD_INTEGERS) send(`body ${name}=${bad}`, { ...baseline, [name]: bad });
    }
    send('body key NUL', { ...baseline, 'a\u0000': 1 });
    send('body key surrogate', { ...baseline, '\uD800': 'x' });
    send('body nested NUL', { ...baseline, extra: [{ deep: ['x\u0000'] }] });
    send('body deep surrogate', { ...baseline, extra: JSON.parse('['.repeat(2000) + '"\\udfff"' + ']'.repeat(2000)) });
    // Forbidden characters at random places in the valid values (fixed seed: the same cases every run).
    const names = Object.keys(baseline);
    if (names.length)
      for (const { name, at, bad } of fc.sample(
        fc.record({ name: fc.constantFrom(...names), at: fc.nat(), bad: fc.constantFrom('\u0000', '\uD800', '\uDFFF', '\uDBFF\u0000') }),
        { numRuns: 8, seed: 12 },
      )) {
        const text = String(baseline[name]);
        const i = at % (text.length + 1);
        send(`body ${name} with ${JSON.stringify(bad)} at ${i}`, { ...baseline, [name]: text.slice(0, i) + bad + text.slice(i) });
      }
    // Form-encoded bodies: refused as unsupported (415) or, where forms are parsed, for their NUL (400).
    for (const form of ['action=pay%00', 'method=%00&action=pay', 'a%00=1', 'action=%ED%A0%80'])
      add(`form ${form}`, basePath, { headers: { ...auth(token), 'content-type': 'application/x-www-form-urlencoded' }, payload: form, expect: '4xx' });
    return cases;
  }

  it('answers every malformed request with a 4xx (400 VALIDATION_ERROR for bad text and numbers) and changes no row', async () => {
    const routes = discoverRoutes(ctx.app);
    // The discovery sees the routes this suite was written against, and the ones added since.
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /public/list', 'POST /api/payment/initiate', 'PUT /slot/:id', 'POST /slot/:id/reserve', 'POST /api/payment/callback', 'POST /sandbox-gateway/checkout/:id']),
    );
    const cases = routes.flatMap(casesFor);
    expect(cases.length).toBeGreaterThanOrEqual(MIN_CASES_PER_DRIVER);
    const before = await snapshotAllTables(ctx.database);

    const wrong: string[] = [];
    for (const c of cases) {
      const res = await ctx.app.inject({ method: c.method as 'GET', url: c.url, headers: c.headers, ...(c.payload === undefined ? {} : { payload: c.payload }) });
      const body = res.headers['content-type']?.toString().includes('json') ? res.json() : null;
      const refused = c.expect === 400 ? res.statusCode === 400 && body?.error === ErrorCode.VALIDATION_ERROR : res.statusCode >= 400 && res.statusCode < 500;
      const enveloped = body?.success === false && body.data === null && typeof body.message === 'string' && body.message.length > 0;
      if (!refused || !enveloped) wrong.push(`${c.label} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshotAllTables(ctx.database)).toEqual(before);
  });
});
