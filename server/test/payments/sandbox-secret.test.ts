import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { buildApp, type App } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { payments } from '../../src/payments/tables';
import { createThrowawayPostgres } from '../helpers';
import { initiateBody, insertSlot, waitFor } from './support';

// Two API processes on one PostgreSQL, no SANDBOX_SECRET configured: the sandbox's signing key comes from the database,
// so a callback signed by one replica's gateway is accepted by the other (each used to generate a key of its own).
jest.setTimeout(60_000);

type Replica = { app: App; database: DatabaseHandle; config: Config; url: string; dataDir: string };
let drop: () => Promise<void>;
let a: Replica;
let b: Replica;

async function replica(url: string): Promise<Replica> {
  const database = await openDatabase({ driver: 'postgres', url, poolSize: 4 });
  await migrate(database);
  // Each replica on its own machine: nothing shared but the database.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'replica-'));
  const base = loadConfig({ DATA_DIR: dataDir });
  const config: Config = { ...base, seedDemo: false, payments: { ...base.payments, sandboxSecret: undefined, publicSiteUrl: 'http://site.test', reconcileIntervalMs: 0 } };
  const app = await buildApp({ database, config, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const own = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  config.payments.apiPublicUrl = own;
  return { app, database, config, url: own, dataDir };
}

beforeAll(async () => {
  const pg = await createThrowawayPostgres('sandbox_secret');
  drop = pg.drop;
  a = await replica(pg.url);
  b = await replica(pg.url);
});
afterAll(async () => {
  for (const r of [a, b]) {
    await r?.app.close();
    await r?.database.close();
    if (r) fs.rmSync(r.dataDir, { recursive: true, force: true });
  }
  await drop?.();
});

it("books the slot when one replica's sandbox pays and the other replica receives the signed callback", async () => {
  const slot = await insertSlot(a.database);
  // Replica A creates the session but names replica B as the API the gateway calls back.
  a.config.payments.apiPublicUrl = b.url;
  const res = await a.app.inject({ method: 'POST', url: '/api/payment/initiate', payload: initiateBody(slot) });
  expect(res.statusCode).toBe(200);
  const session = res.json().data.paymentSession as { paymentId: string; checkoutUrl: string };
  // The parent presses Pay on replica A's checkout page; A signs the callback and sends it to B.
  const checkoutOnA = session.checkoutUrl.replace(b.url, a.url);
  const paid = await fetch(checkoutOnA, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'action=pay&method=fpx',
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  const completed = await waitFor(async () => {
    const [row] = await b.database.db.select().from(payments).where(eq(payments.id, session.paymentId));
    return row.status === 'completed' ? row : null;
  });
  expect(completed.status).toBe('completed');
});
