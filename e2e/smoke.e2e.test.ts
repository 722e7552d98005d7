// Smoke test of the federated product: the shell, both remotes and the API, started as `npm start` does.
import fs from 'node:fs';
import { launchBrowser, type LaunchedBrowser } from './support/browser';
import { desktopViewport, newPage, recordResponses, slotButtons, visible } from './support/page';
import { analysisFile, startStack, type BundleAnalysis, type BundleName, type Stack } from './support/product';

let product: Stack;
let browser: LaunchedBrowser;

beforeAll(async () => {
  product = await startStack();
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

afterEach(async () => {
  // A fresh page per test; the profile itself lives for the file.
  for (const page of browser?.context.pages().slice(1) ?? []) await page.close();
});

test('/ shows the slots the API returns, inside the booking remote', async () => {
  const page = await newPage(browser.context);
  const responses = recordResponses(page);
  await page.goto(`${product.urls.shell}/`);

  await visible(slotButtons(page).first());
  const listCall = await fetch(`${product.urls.api}/public/list?limit=100&page=1&format=legacy`);
  expect(listCall.status).toBe(200);
  const body = (await listCall.json()) as { data: { slots: { startTime: string }[] } };
  expect(body.data.slots.length).toBeGreaterThan(0);
  expect(await slotButtons(page).count()).toBeGreaterThan(0);
  // The shell's server rendered the timetable from the list and put that answer in the page for its store: the
  // browser asks for no list (with the client-rendered page, the HTML preloads it: one request, see
  // e2e/deploy/server-render.e2e.test.ts for the fallback).
  expect(responses.filter((r) => r.url().startsWith(`${product.urls.api}/public/list`))).toHaveLength(0);
  // The page frame belongs to the shell.
  await visible(page.getByRole('banner').getByRole('link', { name: /home/i }));
  expect(responses.some((r) => r.url().startsWith(`${product.urls.booking}/`))).toBe(true);
  // The staff Login link is on desktop only.
  const login = page.getByRole('banner').getByRole('link', { name: 'Login' });
  expect(await login.isVisible()).toBe(false);
  await page.setViewportSize(desktopViewport);
  await visible(login);
});

test('/login shows the admin remote', async () => {
  const page = await newPage(browser.context, desktopViewport);
  const responses = recordResponses(page);
  await page.goto(`${product.urls.shell}/login`);

  await visible(page.getByLabel(/password/i).first());
  expect(responses.some((r) => r.url().startsWith(`${product.urls.admin}/`) && r.ok())).toBe(true);
});

test('deep links such as /secured/dashboard and /payment/success?reference=x load the shell', async () => {
  for (const deepLink of ['/secured/dashboard', '/payment/success?reference=x']) {
    const response = await fetch(`${product.urls.shell}${deepLink}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-cache');

    // The page itself runs: the shell's frame and the remote's content (no load-error panel).
    const page = await newPage(browser.context, desktopViewport);
    await page.goto(`${product.urls.shell}${deepLink}`);
    await visible(page.getByRole('banner').getByRole('link', { name: /home/i }));
    await page.waitForLoadState('networkidle');
    expect(await page.getByText(/could not be loaded/).count()).toBe(0);
    expect((await page.getByRole('main').innerText()).trim()).not.toBe('');
  }
});

test('caching: entry points revalidate, hashed files are immutable, text is compressed', async () => {
  const shellHtml = await (await fetch(`${product.urls.shell}/`)).text();
  const mainScript = /src="\/?(main\.[0-9a-f]+\.js)"/.exec(shellHtml)?.[1];
  expect(mainScript).toBeDefined();
  const hashed = await fetch(`${product.urls.shell}/${mainScript}`, { headers: { 'accept-encoding': 'br' } });
  expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(hashed.headers.get('content-encoding')).toBe('br');

  for (const url of [`${product.urls.booking}/remoteEntry.js`, `${product.urls.booking}/mf-manifest.json`, `${product.urls.shell}/remotes.json`]) {
    const response = await fetch(url, { headers: { origin: product.urls.shell } });
    expect([url, response.status, response.headers.get('cache-control')]).toEqual([url, 200, 'no-cache']);
  }
  const remoteChunk = await fetch(`${product.urls.admin}/remoteEntry.js`, { headers: { origin: product.urls.shell } });
  expect(remoteChunk.headers.get('access-control-allow-origin')).toBe('*');
});

// Which packages each emitted file carries, per bundle (written by scripts/build.ts).
const contentsOf = (bundle: BundleName): BundleAnalysis =>
  JSON.parse(fs.readFileSync(analysisFile(bundle), 'utf8')) as BundleAnalysis;

test('each shared singleton is loaded from exactly one bundle when the shell has shown both remotes', async () => {
  const page = await newPage(browser.context);
  const responses = recordResponses(page);
  await page.goto(`${product.urls.shell}/`);
  await visible(slotButtons(page).first());
  // Client-side navigation: the same page now also runs the admin remote.
  await page.setViewportSize(desktopViewport);
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).click();
  await visible(page.getByLabel(/password/i).first());

  const bundleByOrigin: Record<string, BundleName> = {
    [product.urls.shell]: 'shell',
    [product.urls.booking]: 'booking-remote',
    [product.urls.admin]: 'admin-remote',
  };
  const contents = { shell: contentsOf('shell'), 'booking-remote': contentsOf('booking-remote'), 'admin-remote': contentsOf('admin-remote') };
  const loadedFrom = new Map<string, Set<BundleName>>();
  for (const response of responses) {
    const url = new URL(response.url());
    const bundle = bundleByOrigin[url.origin];
    if (!bundle || !url.pathname.endsWith('.js')) continue;
    for (const pkg of Object.keys(contents[bundle][url.pathname.slice(1)] ?? {})) {
      if (!loadedFrom.has(pkg)) loadedFrom.set(pkg, new Set());
      loadedFrom.get(pkg)!.add(bundle);
    }
  }
  const singletons = [
    'react',
    'react-dom',
    'react-router-dom',
    'react-redux',
    '@reduxjs/toolkit',
    'styled-components',
    'shared-ui',
    'shared-api',
  ];
  const copies = Object.fromEntries(singletons.map((pkg) => [pkg, [...(loadedFrom.get(pkg) ?? [])]]));
  expect(copies).toEqual(Object.fromEntries(singletons.map((pkg) => [pkg, [expect.any(String)]])));
  // The router itself, whatever package carries it, is not loaded twice either.
  expect((loadedFrom.get('react-router') ?? new Set()).size).toBeLessThanOrEqual(1);
});

test('with admin-remote stopped, / still works and /login shows the error panel; Retry recovers without a reload', async () => {
  await product.stopRemote('admin');
  try {
    const page = await newPage(browser.context);
    await page.goto(`${product.urls.shell}/`);
    await visible(slotButtons(page).first());

    await page.goto(`${product.urls.shell}/login`);
    const panel = page.getByRole('alert').filter({ hasText: 'The staff area could not be loaded' });
    await visible(panel);
    await visible(page.getByRole('banner'));
    const retry = panel.getByRole('button', { name: 'Retry' });
    expect(await retry.isVisible()).toBe(true);

    // Retry while still down: the panel stays (and the page is the same document).
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await retry.click();
    await visible(page.getByRole('alert').filter({ hasText: 'The staff area could not be loaded' }));

    // Back up: Retry loads the remote in place.
    await product.startRemote('admin');
    await page.getByRole('button', { name: 'Retry' }).click();
    await visible(page.getByLabel(/password/i).first());
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  } finally {
    await product.startRemote('admin');
  }
});

test('with booking-remote stopped, /login still works and / shows the error panel', async () => {
  await product.stopRemote('booking');
  try {
    const page = await newPage(browser.context, desktopViewport);
    await page.goto(`${product.urls.shell}/login`);
    await visible(page.getByLabel(/password/i));

    await page.goto(`${product.urls.shell}/`);
    const panel = page.getByRole('alert').filter({ hasText: 'The booking page could not be loaded' });
    await visible(panel);
    expect(await panel.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    await visible(page.getByRole('banner').getByRole('link', { name: 'Login' }));
  } finally {
    await product.startRemote('booking');
  }
});

test('each remote also runs standalone on its own port', async () => {
  const booking = await newPage(browser.context);
  await booking.goto(`${product.urls.booking}/`);
  await visible(slotButtons(booking));

  const admin = await newPage(browser.context, desktopViewport);
  await admin.goto(`${product.urls.admin}/login`);
  await visible(admin.getByLabel(/password/i));
});
