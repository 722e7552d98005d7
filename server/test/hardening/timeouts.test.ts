import net, { type AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config';
import { stopTestApp, type TestContext } from '../helpers';
import { startHardeningApp } from './routes';

// A real listening server and raw sockets: a body or headers trickled byte by byte, or a connection that sends
// nothing, are ended by the server (408 or close) soon after REQUEST_TIMEOUT_MS, whatever the client does.
jest.setTimeout(30_000);

const TIMEOUT_MS = 1000;
// Node checks request and header timeouts once a second (connectionsCheckingInterval): allow that, and some slack.
const DEADLINE_MS = TIMEOUT_MS + 1000 + 1500;

let ctx: TestContext;
let port: number;

beforeAll(async () => {
  ctx = await startHardeningApp('pglite', { config: { requestTimeoutMs: TIMEOUT_MS } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(() => stopTestApp(ctx));

type Outcome = { answer: string; closedAfterMs: number; bytesSent: number };

/** Sends `head`, then one byte of `trickle` every `everyMs` until the server closes the connection. */
function trickle(head: string, rest: string, everyMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined); // a reset after the server gave up counts as closed
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, closedAfterMs: Date.now() - started, bytesSent: sent });
    });
    socket.on('connect', () => {
      if (head) socket.write(head);
      timer = setInterval(() => {
        if (sent < rest.length && socket.writable) socket.write(rest[sent++]);
      }, everyMs);
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`the server kept the connection open (answer so far: ${JSON.stringify(answer)})`));
    }, 10_000).unref();
  });
}

it('a JSON body trickled one byte every 200 ms gets 408 and a closed connection within the request timeout', async () => {
  const body = JSON.stringify({ email: 'staff@example.com', password: 'x'.repeat(200) });
  const head = `POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  const outcome = await trickle(head, body, 200);
  expect(outcome.answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  expect(outcome.closedAfterMs).toBeLessThan(DEADLINE_MS);
  expect(outcome.bytesSent).toBeLessThan(body.length);
});

it('headers trickled one byte every 200 ms get 408 within the request timeout', async () => {
  const headers = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(100) + '\r\n\r\n';
  const outcome = await trickle('', headers, 200);
  expect(outcome.answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(outcome.closedAfterMs).toBeLessThan(DEADLINE_MS);
});

it('a connection that sends nothing is closed within the request timeout', async () => {
  const outcome = await trickle('', '', 1000);
  expect(outcome.closedAfterMs).toBeLessThan(DEADLINE_MS);
});

it('a request that arrives in time is answered as usual', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/health`);
  expect(res.status).toBe(200);
});

it('REQUEST_TIMEOUT_MS: 30 s by default, configurable, and refused below one second', () => {
  expect(loadConfig({}).requestTimeoutMs).toBe(30_000);
  expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000' }).requestTimeoutMs).toBe(5000);
  expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '10' })).toThrow(/REQUEST_TIMEOUT_MS must be at least 1000/);
  expect(() => loadConfig({ REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/REQUEST_TIMEOUT_MS must be a whole number/);
});
