import zlib from 'node:zlib';
import { auth, insertSlot, staffToken, startTestApp, stopTestApp, type TestContext } from '../helpers';

// API answers travel compressed when the caller accepts it (br or gzip) and are big enough to gain from it; the
// caller decodes exactly the JSON a plain answer carries, and a caller that asks for nothing gets plain JSON.
jest.setTimeout(60_000);

let ctx: TestContext;
let token: string;

beforeAll(async () => {
  ctx = await startTestApp();
  token = await staffToken(ctx);
  // Forty slots make the staff list a JSON answer of several KB.
  for (let i = 0; i < 40; i++) await insertSlot(ctx.database, 48 + i, { status: 'booked', visitorName: `Parent ${i}`, visitorEmail: `p${i}@example.com`, selectedSchool: 'Seri Ilmu Private Primary' });
});
afterAll(() => stopTestApp(ctx));

const list = (headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url: '/slot/list', headers: { ...auth(token), ...headers } });

describe('compressed API answers', () => {
  it('a large JSON answer without Accept-Encoding comes plain', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBeGreaterThan(4 * 1024);
    expect(res.json().data.timeSlots.rows).toHaveLength(40);
  });

  it.each([
    ['br', (body: Buffer) => zlib.brotliDecompressSync(body)],
    ['gzip', (body: Buffer) => zlib.gunzipSync(body)],
  ])('with Accept-Encoding %s it comes compressed, smaller, varying on Accept-Encoding, and decodes to the same JSON', async (encoding, decode) => {
    const plain = await list();
    const res = await list({ 'accept-encoding': encoding });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(decode(res.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('a browser accepting both gets br', async () => {
    const res = await list({ 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('an encoding the API does not offer (deflate) gets plain JSON', async () => {
    const res = await list({ 'accept-encoding': 'deflate' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().data.timeSlots.rows).toHaveLength(40);
  });

  it('a small answer (under 1 KB) is not compressed', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/user', headers: { ...auth(token), 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().data.data.user.email).toBe('staff@example.com');
  });

  it('an error answer is JSON a caller can read either way', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/slot/list', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(401);
    const body = res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(res.rawPayload).toString('utf8') : res.body;
    expect(JSON.parse(body)).toMatchObject({ success: false });
  });
});
