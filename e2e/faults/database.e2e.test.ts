// Fault: the database goes away. The API runs on PostgreSQL through a TCP link this test can cut (as a failed database
// host or network would); the timetable shows the database message with Retry, never stale or invented slots.
import net from 'node:net';
import { Client } from 'pg';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { phone, startJourney } from '../support/journey';
import { slotButtons } from '../support/page';
import { startStack, type Stack } from '../support/product';

const PG = { host: '127.0.0.1', port: 5432, user: 'postgres' };
const database = `e2e_db_fault_${process.pid}_${Date.now()}`;

/** A TCP link to PostgreSQL that can be cut (listener closed, open connections reset) and restored on the same port. */
async function startDatabaseLink() {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(PG.port, PG.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    cut: async () => {
      const current = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (current ? current.close(() => resolve()) : resolve()));
    },
    restore: listen,
  };
}

let stack: Stack;
let browser: LaunchedBrowser;
let link: Awaited<ReturnType<typeof startDatabaseLink>>;

async function admin(sql: string) {
  const client = new Client({ ...PG, database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await admin(`CREATE DATABASE ${database}`);
  link = await startDatabaseLink();
  // Demo slots seeded on first start: there is something on the timetable that must not be shown from a cache.
  stack = await startStack({ apiEnv: { DATABASE_URL: `postgres://${PG.user}@127.0.0.1:${link.port}/${database}` } });
  browser = await launchBrowser({ viewport: phone });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await link?.cut();
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

test('fault: the database goes away: the timetable shows the database message with Retry, then recovers', async () => {
  const journey = startJourney('fault-database-gone');
  const page = await browser.context.newPage();
  await page.goto(`${stack.urls.shell}/`);
  await slotButtons(page).first().waitFor();

  await link.cut();
  await page.reload();
  const message = page.getByText(/^Database Issue: /);
  await message.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
    // What the parent saw instead, what /health says, and the API's warnings: the failure names its cause.
    const health = await fetch(`${stack.urls.api}/health`).then((r) => r.text(), (err: unknown) => String(err));
    const warnings = stack.logs.filter((line) => !line.includes('"level":30')).slice(-20);
    throw new Error(`${String(error)}\nThe page: ${await page.locator('main').innerText()}\n/health: ${health}\nAPI: ${warnings.join('\n')}`);
  });
  expect(await message.innerText()).toMatch(/^Database Issue: .+/);
  const retry = page.getByRole('main').getByRole('button', { name: 'Retry' }).first();
  await retry.waitFor();
  // No slots from anywhere: not stale, not invented.
  await page.getByText('Loading available slots...').waitFor({ state: 'detached', timeout: 30_000 });
  expect(await slotButtons(page).count()).toBe(0);
  await journey.shot(page, 'fault-database-gone-message');

  await link.restore();
  await retry.click();
  await slotButtons(page).first().waitFor({ timeout: 30_000 });
  await message.waitFor({ state: 'detached' });
  await journey.finish(page);
});
