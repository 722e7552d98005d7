jest.setTimeout(120_000);
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SANDBOX_SECRET, throwawayPostgres, waitFor } from './support';

const ROOT = path.resolve(__dirname, '../../..');

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

type Server = { child: ChildProcess; output: () => string; base: string };

/** The real server (server/src/main.ts) as a child process. */
async function startServer(env: Record<string, string>): Promise<Server> {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const base = `http://127.0.0.1:${env.PORT}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
      return fetch(`${base}/health`).then((r) => r.ok, () => false);
    },
    60_000,
    200,
  );
  return { child, output: () => out, base };
}

const exited = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.signalCode ?? child.exitCode);
    child.once('exit', (code, signal) => resolve(signal ?? code));
  });

async function json(res: Response) {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body;
}

describe.each(['pglite', 'postgres'] as const)('server killed between the gateway payment and its callback (%s)', (driver) => {
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  const children: ChildProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-crash-'));
    const port = String(await freePort());
    env = {
      PORT: port,
      DATA_DIR: dataDir,
      API_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PUBLIC_SITE_URL: 'http://site.test',
      SANDBOX_SECRET,
      SEED_DEMO: 'true',
      RECONCILE_INTERVAL_MS: '600000',
      MAIL_POLL_MS: '600000',
    };
    if (driver === 'postgres') {
      const pgdb = await throwawayPostgres('payments_crash');
      drop = pgdb.drop;
      env.DATABASE_URL = pgdb.url;
    }
  });
  afterAll(async () => {
    for (const c of children) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGTERM');
        await exited(c);
      }
    }
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the payment on restart through the reconciliation pass', async () => {
    // First life: the sandbox's callback is delayed 10 minutes, so it is still in flight when the process dies.
    const first = await startServer({ ...env, SANDBOX_CALLBACK_DELAY_MS: '600000' });
    children.push(first.child);
    const list = await json(await fetch(`${first.base}/public/list?limit=100&page=1`));
    const slot = list.data.slots[0];
    expect(slot).toBeTruthy();
    const init = await json(
      await fetch(`${first.base}/api/payment/initiate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          slotId: slot.id,
          visitorName: 'Crash Test Parent',
          visitorEmail: 'crash@example.com',
          visitorContactNo: '0123456789',
          selectedSchool: 'Seri Ilmu International',
          fee: 10000,
          slotDate: slot.date,
          slotStartTime: slot.startTime,
        }),
      }),
    );
    const session = init.data.paymentSession;
    const pay = await fetch(session.checkoutUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=pay&method=fpx',
      redirect: 'manual',
    });
    expect(pay.status).toBe(303);

    first.child.kill('SIGKILL');
    expect(await exited(first.child)).toBe('SIGKILL');

    // Second life: nobody asks for the status; the startup reconciliation alone must book the slot.
    const second = await startServer(env);
    children.push(second.child);
    await waitFor(async () => /Reconciliation pass done \(1 payment\(s\) finished\)/.test(second.output()), 30_000, 100);

    const login = await json(
      await fetch(`${second.base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com', password: 'admin12345' }),
      }),
    );
    const booked = await json(await fetch(`${second.base}/slot/list?isBooked=true`, { headers: { authorization: `Bearer ${login.data.token}` } }));
    const row = booked.data.timeSlots.rows.find((r: { id: number }) => r.id === slot.id);
    expect(row).toMatchObject({ isBooked: true, visitorEmail: 'crash@example.com', bookingReference: session.clientReference, amountSen: 10000 });

    const status = await json(await fetch(`${second.base}/api/payment/status/reference/${session.clientReference}`));
    expect(status.data.payment.status).toBe('completed');
    expect(status.data.booking.confirmed).toBe(true);

    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });
});
