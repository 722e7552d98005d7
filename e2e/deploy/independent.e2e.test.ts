// Independent deployment, the reason for the micro-frontends: booking-remote is rebuilt and shipped alone while the
// shell's files stay byte-identical; either remote can be down while the other side of the product keeps working.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { brand, PUBLIC_TIMETABLE_LIST_PATH } from 'shared-api/contract';
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, demoLoginFrom, eventually, nextWeekdays, publicSlots, startJourney } from '../support/journey';
import { bookToGateway, onGateway, showSlotDay } from '../support/parent';
import { distDir, remoteEntryUrl, repoRoot, type Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;
const days = nextWeekdays(2);

productSuite({ staff: true }, (s) => ({ stack, browser, token } = s));

/** sha256 of every file under `dir`, by relative path. */
function hashTree(dir: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const file = path.join(current, entry.name);
      if (entry.isDirectory()) walk(file);
      else hashes[path.relative(dir, file)] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    }
  };
  walk(dir);
  return hashes;
}

/** The booking team's release: their own production config, into their own folder, with a visible change. */
function buildBookingRelease(outputDir: string, label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, 'node_modules/@rspack/cli/bin/rspack.js'), 'build', '-c', 'e2e/deploy/rspack.booking-redeploy.config.ts', '--mode', 'production'],
      { cwd: repoRoot, env: { ...process.env, NODE_ENV: 'production', REDEPLOY_OUTPUT_DIR: outputDir, REDEPLOY_LABEL: label }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`booking-remote release build failed (${code}):\n${output}`))));
  });
}

/** A deployment's error collector: keeps the JSON bodies posted to it (beacons arrive as text/plain). */
async function startErrorCollector(): Promise<{ url: string; reports: Array<Record<string, unknown>>; close: () => Promise<void> }> {
  const reports: Array<Record<string, unknown>> = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.method === 'POST') reports.push(JSON.parse(body) as Record<string, unknown>);
      response.writeHead(204, { 'Access-Control-Allow-Origin': '*' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/browser-errors`, reports, close: () => new Promise((done) => server.close(() => done())) };
}

async function staffLogin(page: Page) {
  const login = demoLoginFrom(stack.logs);
  await page.getByLabel('Email').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('heading', { name: 'Assessment Dashboard' }).waitFor();
}

test('booking-remote is rebuilt and redeployed alone at a new address; the shell, byte-identical, shows it on the next load', async () => {
  const journey = startJourney('deploy-booking-release');
  await addSlot(stack.urls.api, token, days[0], '11:00');
  const shellBefore = hashTree(distDir('shell'));
  const releaseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-booking-release-'));
  const oldBooking = stack.remotes.booking;
  try {
    const page = await browser.context.newPage();
    await page.goto(`${stack.urls.shell}/`);
    await page.getByText(/^Last updated:/).waitFor();

    await buildBookingRelease(releaseDir, 'Release 2 updated');
    const release = await stack.serveFolder(releaseDir);
    // Shipping = new files at the new address, then remotes.json points there; the old address is switched off.
    stack.remotes.booking = remoteEntryUrl(release.url);
    await stack.stopRemote('booking');

    const fromRelease: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(release.url)) fromRelease.push(response.url());
    });
    await page.reload();
    await page.getByText(/^Release 2 updated:/).waitFor();
    expect(await page.getByText(/^Last updated:/).count()).toBe(0);
    expect(fromRelease.some((url) => url.endsWith('/remoteEntry.js'))).toBe(true);
    // The release is the whole remote, not a patched page: a parent can still take a slot through it.
    await bookToGateway(page, days[0], '11:00');
    await onGateway(page, 'cancel');
    await page.waitForURL(`${stack.urls.shell}/**`);
    await page.goto(`${stack.urls.shell}/`);
    await page.getByText(/^Release 2 updated:/).waitFor();

    expect(hashTree(distDir('shell'))).toEqual(shellBefore);
    // The HTML of / is rendered by the release's own render entry (loaded from its address by the shell's server).
    const rendered = await eventually(async () => {
      const html = await (await fetch(`${stack.urls.shell}/`)).text();
      return html.includes('id="server-state"') ? html : undefined;
    }, 'the server-rendered /', 15_000);
    expect(rendered).toContain('Release 2 updated:');
    expect(rendered).not.toContain('Last updated:');
    // Serving a page not rendered on the server adds deploy-time preload hints only: the remote's files at its current
    // address (on the client-rendered /, also the timetable's data), and sets the page's own title and no-JavaScript
    // line in its language; all else is the built file.
    const servedIndex = await (await fetch(`${stack.urls.shell}/thankyou`)).text();
    const hints = servedIndex.match(/<link rel="preload" href="http:\/\/[^"]+"[^>]*>/g) ?? [];
    const dataHint = `<link rel="preload" href="${stack.urls.api}${PUBLIC_TIMETABLE_LIST_PATH}" as="fetch" crossorigin="anonymous">`;
    expect(hints.filter((hint) => hint === dataHint)).toHaveLength(0);
    const remoteHints = hints.filter((hint) => hint !== dataHint);
    expect(remoteHints.length).toBeGreaterThan(0);
    for (const hint of remoteHints) expect(hint).toContain(release.url);
    expect(servedIndex).toContain(`<title>Booking complete · ${brand.title}</title>`);
    const pageParts = (html: string) => html.replace(/<title>[^<]*<\/title>/, '').replace(/<noscript>[\s\S]*?<\/noscript>/, '');
    expect(pageParts(hints.reduce((page, hint) => page.replace(hint, ''), servedIndex))).toBe(pageParts(fs.readFileSync(path.join(distDir('shell'), 'index.html'), 'utf8')));
    await journey.finish(page);
  } finally {
    stack.remotes.booking = oldBooking;
    await stack.startRemote('booking');
    fs.rmSync(releaseDir, { recursive: true, force: true });
  }
});

test('admin-remote down: the parent books and pays; /login shows the error panel; Retry loads it without reloading the shell', async () => {
  const journey = startJourney('deploy-admin-down');
  await addSlot(stack.urls.api, token, days[1], '09:00');
  await stack.stopRemote('admin');
  // Error reports on for this test: the boundary that shows the panel also posts a report.
  const collector = await startErrorCollector();
  stack.remotes.errorReportUrl = collector.url;
  try {
    const page = await browser.context.newPage();
    await page.goto(`${stack.urls.shell}/`);
    await bookToGateway(page, days[1], '09:00');
    await onGateway(page, 'pay');
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 45_000 });
    await page.getByText('Amount Paid: RM 75', { exact: true }).waitFor();
    expect((await publicSlots(stack.urls.api)).some((slot) => slot.date === days[1] && slot.startTime === '09:00')).toBe(false);

    // Staff area from the shell's own Login link (client-side), while admin-remote is down.
    await page.evaluate(() => ((window as unknown as { __shellMarker: string }).__shellMarker = 'same document'));
    await page.getByRole('banner').getByRole('link', { name: 'Login' }).click();
    const panel = page.getByRole('alert').filter({ hasText: 'The staff area could not be loaded' });
    await panel.waitFor();
    await journey.shot(page, 'deploy-admin-down-panel');
    const report = await eventually(async () => collector.reports[0], 'the error report of the failed admin-remote', 10_000);
    expect(report).toMatchObject({ remote: 'admin', path: '/login', userAgent: expect.stringContaining('Chrome') });

    await stack.startRemote('admin');
    await panel.getByRole('button', { name: 'Retry' }).click();
    await page.getByLabel('Password').waitFor();
    expect(await page.evaluate(() => (window as unknown as { __shellMarker?: string }).__shellMarker)).toBe('same document');
    await journey.finish(page);
  } finally {
    delete stack.remotes.errorReportUrl;
    await collector.close();
    await stack.startRemote('admin');
  }
});

test('booking-remote down: staff log in, create a slot and see it on the dashboard; / shows the error panel', async () => {
  const journey = startJourney('deploy-booking-down');
  await stack.stopRemote('booking');
  try {
    const page = await browser.context.newPage();
    await page.goto(`${stack.urls.shell}/login`);
    await staffLogin(page);
    const before = (await publicSlots(stack.urls.api)).length;
    await page.getByRole('button', { name: /Actions/ }).click();
    await page.getByRole('menuitem', { name: 'Create New Slot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Slots' });
    await dialog.getByLabel('Start date').fill(days[1]);
    await dialog.getByLabel('End date').fill(days[1]);
    await dialog.getByLabel('Start time').fill('16:30');
    await dialog.getByRole('checkbox', { name: 'Skip public holidays' }).uncheck();
    await dialog.getByRole('button', { name: 'Create Slots' }).click();
    await page.getByText('Successfully created 1 slot(s)!').first().waitFor();
    expect((await publicSlots(stack.urls.api)).length).toBe(before + 1);
    await journey.finish(page);

    await page.getByRole('button', { name: 'View Timetable' }).click();
    const panel = page.getByRole('alert').filter({ hasText: 'The booking page could not be loaded' });
    await panel.waitFor();
    await journey.shot(page, 'deploy-booking-down-panel');
    await stack.startRemote('booking');
    await panel.getByRole('button', { name: 'Retry' }).click();
    await (await showSlotDay(page, days[1], '16:30')).waitFor();
  } finally {
    await stack.startRemote('booking');
  }
});
