import { loadConfig, trustProxyFrom, type Config } from '../../src/config';
import { loggerOptions } from '../../src/base/logging';
import { stopTestApp, type TestContext } from '../helpers';
import { startHardeningApp } from './routes';

// request.ip (what rate limits are keyed on) follows X-Forwarded-For only when TRUST_PROXY says the peer is a proxy.
// Seen where Fastify reports it: the request log line's remoteAddress.
jest.setTimeout(30_000);

const CLIENT = '203.0.113.7';

describe.each<[string, string | undefined, [peer: string, forwardedFor: string, ip: string][]]>([
  ['unset', undefined, [['127.0.0.1', CLIENT, '127.0.0.1'], ['10.0.0.5', CLIENT, '10.0.0.5']]],
  [
    '1 (one proxy hop, from a private network)',
    '1',
    [
      ['127.0.0.1', CLIENT, CLIENT],
      ['10.0.0.5', CLIENT, CLIENT],
      // Only the last hop is trusted: an address the client put first is not taken.
      ['10.0.0.5', `198.51.100.1, ${CLIENT}`, CLIENT],
      // A client on the internet talking to the API directly cannot choose its address.
      ['198.51.100.9', CLIENT, '198.51.100.9'],
    ],
  ],
  ['2 (two hops)', '2', [['10.0.0.5', `${CLIENT}, 10.0.0.8`, CLIENT]]],
  ['a list of proxy addresses', '10.0.0.5, 192.168.0.0/16', [['10.0.0.5', CLIENT, CLIENT], ['192.168.3.4', CLIENT, CLIENT], ['10.0.0.6', CLIENT, '10.0.0.6']]],
  ['true', 'true', [['198.51.100.9', CLIENT, CLIENT]]],
])('TRUST_PROXY %s', (_name, setting, cases) => {
  let ctx: TestContext;
  const lines: { msg: string; req?: { remoteAddress: string } }[] = [];

  beforeAll(async () => {
    const config: Partial<Config> = { trustProxy: loadConfig({ TRUST_PROXY: setting }).trustProxy };
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    ctx = await startHardeningApp('pglite', { config, logger: { ...loggerOptions('info'), stream } });
  });
  afterAll(() => stopTestApp(ctx));

  it.each(cases)('from %s with X-Forwarded-For "%s": request.ip is %s', async (peer, forwardedFor, ip) => {
    lines.length = 0;
    const res = await ctx.app.inject({ url: '/health', remoteAddress: peer, headers: { 'x-forwarded-for': forwardedFor } });
    expect(res.statusCode).toBe(200);
    expect(lines.find((line) => line.msg === 'incoming request')?.req?.remoteAddress).toBe(ip);
  });
});

it('TRUST_PROXY reads as false, true, a hop count or a list of addresses', () => {
  expect(trustProxyFrom(undefined)).toBe(false);
  expect(trustProxyFrom('')).toBe(false);
  expect(trustProxyFrom('false')).toBe(false);
  expect(trustProxyFrom('TRUE')).toBe(true);
  expect(trustProxyFrom('2')).toBe(2);
  expect(trustProxyFrom(' 10.0.0.1, 10.0.1.0/24 ')).toEqual(['10.0.0.1', '10.0.1.0/24']);
});
