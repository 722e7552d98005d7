import Ajv from 'ajv';
import { createUser } from '../../src/auth/accounts';
import { auth, STAFF, enrolSecondFactor } from '../helpers';
import { initiateBody, insertSlot, startPaymentsApp, type PayCtx } from '../payments/support';

// Issue 35, the two download routes (the PDPA export, the breach contacts). Their CSV is written by the product's one
// CSV writer (shared-api/csv), as the staff side's downloads are: a UTF-8 BOM (Excel reads a Chinese name right) and a
// phone kept as text (Excel keeps its leading 0). /docs says what they answer (a JSON object or text/csv, not "a
// string"), and their real answers match it. All asserted on the routes' real answers.
jest.setTimeout(90_000);

const SCHOOL = 'Seri Ilmu International';
const PERSON = { visitorName: '陈美玲', visitorEmail: 'meiling@example.com', visitorContactNo: '0123456789', selectedSchool: SCHOOL, childName: '陈小明', childYear: 'Year 3' };

/** RFC 4180 rows of a CSV text that has no BOM. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

/** The file's BOM, then its rows as objects keyed by the header. */
function readCsvFile(body: string): { bom: boolean; rows: Record<string, string>[] } {
  const bom = body.startsWith('\uFEFF');
  const [header, ...rows] = parseCsv(bom ? body.slice(1) : body);
  return { bom, rows: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };

describe('the download routes of the API', () => {
  let ctx: PayCtx;
  let token: string;
  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
    await createUser(ctx.database.db, STAFF);
    token = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF })).json().data.token as string;
    await enrolSecondFactor(ctx, token);
    const slot = await insertSlot(ctx.database, 60);
    const booked = await ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, headers: auth(token), payload: { ...PERSON, consent: { noticeVersion: initiateBody(slot).consent.noticeVersion, language: 'zh' } } });
    expect(booked.statusCode).toBe(200);
  });
  afterAll(() => ctx?.close());

  it('the PDPA export: BOM first, the Chinese name as written, the phone 0123456789 a text cell', async () => {
    const res = await ctx.app.inject({ url: `/staff/privacy/person/export?email=${PERSON.visitorEmail}&format=csv`, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const { bom, rows } = readCsvFile(res.body);
    expect(bom).toBe(true);
    const booking = rows.find((r) => r.record === 'bookings')!;
    expect(booking.visitorName).toBe('陈美玲');
    expect(booking.childName).toBe('陈小明');
    // A leading tab: Excel and LibreOffice read the cell as text, so the 0 stays; digits alone would become 123456789.
    expect(booking.visitorContactNo).toBe('\t0123456789');
  });

  it('the breach contacts: BOM first, the Chinese name as written, the phone as staff read it and kept as text', async () => {
    const logged = await ctx.app.inject({ method: 'POST', url: '/staff/breaches', headers: auth(token), payload: { foundAt: new Date().toISOString(), whatHappened: 'x', dataAffected: 'y', school: SCHOOL } });
    expect(logged.statusCode).toBe(200);
    const res = await ctx.app.inject({ url: `/staff/breaches/${logged.json().data.breach.id}/people?format=csv`, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const { bom, rows } = readCsvFile(res.body);
    expect(bom).toBe(true);
    expect(rows).toEqual([expect.objectContaining({ name: '陈美玲', email: PERSON.visitorEmail, phone: '012-345 6789', locale: 'zh' })]);
  });

  it('/docs says each answers a JSON object or text/csv, and the real answers are what it says', async () => {
    const doc = (await ctx.app.inject('/docs/json')).json() as { paths: Record<string, Record<string, Operation>> };
    // OpenAPI 3.0's schema objects (nullable included), as a client generator reads them.
    const ajv = new Ajv({ strict: false, allErrors: true });
    const logged = await ctx.app.inject({ method: 'POST', url: '/staff/breaches', headers: auth(token), payload: { foundAt: new Date().toISOString(), whatHappened: 'x', dataAffected: 'y', school: SCHOOL } });
    const breachId = logged.json().data.breach.id as number;
    for (const [path, url, types] of [
      // The PDPA export also answers the parent's page (format=html).
      ['/staff/privacy/person/export', `/staff/privacy/person/export?email=${PERSON.visitorEmail}`, ['application/json', 'text/csv', 'text/html']],
      ['/staff/breaches/{id}/people', `/staff/breaches/${breachId}/people`, ['application/json', 'text/csv']],
    ] as const) {
      const content = doc.paths[path].get.responses['200'].content!;
      expect([path, Object.keys(content).sort()]).toEqual([path, types]);
      expect([path, content['application/json'].schema]).toEqual([path, expect.objectContaining({ type: 'object' })]);
      const json = await ctx.app.inject({ url: `${url}${url.includes('?') ? '&' : '?'}format=json`, headers: auth(token) });
      expect([path, json.statusCode, json.headers['content-type']]).toEqual([path, 200, 'application/json; charset=utf-8']);
      const valid = ajv.compile(content['application/json'].schema);
      const body = JSON.parse(json.body);
      expect([path, valid(body), valid.errors ?? null]).toEqual([path, true, null]);
      expect(JSON.stringify(body)).toContain('陈美玲');
      const csv = await ctx.app.inject({ url: `${url}${url.includes('?') ? '&' : '?'}format=csv`, headers: auth(token) });
      expect([path, csv.statusCode, csv.headers['content-type']]).toEqual([path, 200, 'text/csv; charset=utf-8']);
      expect(ajv.compile(content['text/csv'].schema)(csv.body)).toBe(true);
      if (!types.includes('text/html' as never)) continue;
      const html = await ctx.app.inject({ url: `${url}&format=html`, headers: auth(token) });
      expect([path, html.statusCode, html.headers['content-type']]).toEqual([path, 200, 'text/html; charset=utf-8']);
      expect(ajv.compile(content['text/html'].schema)(html.body)).toBe(true);
      expect(html.body).toContain('陈美玲');
    }
  });
});
