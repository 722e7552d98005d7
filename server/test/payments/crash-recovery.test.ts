jest.setTimeout(120_000);
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exited, freePort, json, startServer, stopAll } from './server-process';
import { SANDBOX_SECRET, throwawayPostgres, waitFor } from './support';
import { currentConsent } from '../helpers';

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
    await stopAll(children);
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
          childName: 'Crash Test Child',
          childYear: 'Year 7',
          fee: 10000,
          slotDate: slot.date,
          slotStartTime: slot.startTime,
          consent: currentConsent(),
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
