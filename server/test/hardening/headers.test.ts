import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { PAYMENT_KEY_HEADER, PERMISSIONS_POLICY } from 'shared-api/contract';
import { launchBrowser, type LaunchedBrowser } from '../../../e2e/support/browser';
import { API_CSP, DOCS_CSP } from '../../src/base/plugins/security-headers';
import { auth, insertSlot, STAFF, adminToken, stopTestApp, type TestContext } from '../helpers';
import { initiateBody } from '../payments/support';
import { discoverRoutes, startHardeningApp } from './routes';

// Every answer carries nosniff, no referrer, no browser features, no-store and a CSP that forbids framing; the two HTML
// pages the API serves (the OpenAPI page and the sandbox checkout) still work under theirs in a real Chromium.
jest.setTimeout(90_000);

let ctx: TestContext;
let baseUrl: string;
let token: string;

beforeAll(async () => {
  ctx = await startHardeningApp('pglite');
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  // The checkout page posts to this API, which sends the parent back to the site: here, this API too.
  ctx.config.payments.apiPublicUrl = baseUrl;
  ctx.config.payments.publicSiteUrl = baseUrl;
  token = await adminToken(ctx);
});
afterAll(() => stopTestApp(ctx));

const expectSecurityHeaders = (headers: Record<string, unknown>, csp: string) => {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
  expect(headers['content-security-policy']).toBe(csp);
};

/** Answers a cache may keep: the OpenAPI page's static files (Swagger UI's scripts and styles; no data in them). */
const PUBLIC_CACHEABLE = /^\/docs\/static\//;

describe('security headers', () => {
  it('every route answers with nosniff, no-referrer, the permissions policy, no-store and default-src none / frame-ancestors none (errors and 404s too)', async () => {
    // The sandbox checkout and the fake WhatsApp page keep their own policy (inline styles, form posts).
    const routes = discoverRoutes(ctx.app).filter((r) => !r.path.startsWith('/sandbox-gateway/') && !r.path.startsWith('/fake-whatsapp'));
    expect(routes.length).toBeGreaterThan(15);
    const expected = ['nosniff', 'no-referrer', PERMISSIONS_POLICY, 'no-store', API_CSP].join(' | ');
    const missing: string[] = [];
    for (const route of routes) {
      const url = route.path.replace(/:\w+/g, '1');
      for (const headers of [{}, auth(token)]) {
        const res = await ctx.app.inject({ method: route.method as 'GET', url, headers });
        const got = [
          res.headers['x-content-type-options'],
          res.headers['referrer-policy'],
          res.headers['permissions-policy'],
          // The calendar feed says private, no-store: the same for every cache.
          String(res.headers['cache-control']).replace(/^private, /, ''),
          res.headers['content-security-policy'],
        ].join(' | ');
        if (got !== expected) missing.push(`${route.method} ${url} ${res.statusCode}: ${got}`);
      }
    }
    expect(missing).toEqual([]);
    for (const url of ['/no/such/route', '/public/list?limit=%00', '/slot/%zz', '/api/payment/status/' + 'x'.repeat(500)]) {
      const { headers } = await ctx.app.inject(url);
      expectSecurityHeaders(headers, API_CSP);
      expect(headers['cache-control']).toBe('no-store');
    }
  });

  it('answers carrying a token or a visitor\'s details are kept by no cache: login, the current user, staff lists, payment status', async () => {
    await insertSlot(ctx.database, 50, { status: 'booked', visitorName: 'Nur Aina', visitorEmail: 'aina@example.com', visitorContactNo: '0123456789', selectedSchool: 'X' });
    const slot = await insertSlot(ctx.database, 52);
    const initiated = await ctx.app.inject({
      method: 'POST',
      url: '/api/payment/initiate',
      payload: initiateBody(slot, { visitorEmail: 'nocache@example.com', visitorContactNo: '0177777777' }),
      // Another client: its hold leaves this address's allowance to the checkout test below.
      remoteAddress: '127.0.0.9',
    });
    expect(initiated.statusCode).toBe(200);
    const paymentId = initiated.json().data.paymentSession.id as string;
    // A new login: the route walk above logged its token out.
    const login = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF });
    const fresh = auth(login.json().data.token);
    const answers = {
      login,
      user: await ctx.app.inject({ url: '/user', headers: fresh }),
      staffList: await ctx.app.inject({ url: '/slot/list', headers: fresh }),
      paymentStatus: await ctx.app.inject(`/api/payment/status/${paymentId}`),
      initiate: initiated,
    };
    expect(answers.login.json().data.token).toEqual(expect.any(String));
    expect(answers.user.json().data.data.user.email).toBe(STAFF.email);
    expect(answers.staffList.json().data.timeSlots.rows.some((row: { visitorName: string | null }) => row.visitorName)).toBe(true);
    expect(Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, [res.statusCode, res.headers['cache-control']]]))).toEqual(
      Object.fromEntries(Object.keys(answers).map((name) => [name, [200, 'no-store']])),
    );
  });

  it('the sandbox checkout page keeps its own policy (inline styles, form posts) and cannot be framed', async () => {
    const res = await ctx.app.inject('/sandbox-gateway/checkout/unknown-session');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-security-policy']).toMatch(/style-src 'unsafe-inline'.*; frame-ancestors 'none'$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the OpenAPI page and its files answer with the docs policy; only its static files may be cached', async () => {
    for (const url of ['/docs', '/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-initializer.js', '/docs/json']) {
      const res = await ctx.app.inject(url);
      expect(res.statusCode).toBe(200);
      expectSecurityHeaders(res.headers, DOCS_CSP);
      if (!PUBLIC_CACHEABLE.test(url)) expect([url, res.headers['cache-control']]).toEqual([url, 'no-store']);
    }
  });
});

describe('pages under their policy in Chromium', () => {
  let browser: LaunchedBrowser;
  let page: Page;
  let violations: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());
  beforeEach(async () => {
    page = await browser.context.newPage();
    violations = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Permissions-Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
  });
  afterEach(async () => {
    await page.close();
    expect(violations).toEqual([]);
  });

  it('/docs shows the API and its routes', async () => {
    await page.goto(`${baseUrl}/docs`);
    await page.locator('.swagger-ui .info .title').filter({ hasText: 'booking API' }).waitFor();
    await page.locator('.opblock-summary-path', { hasText: '/public/list' }).first().waitFor();
  });

  it('the sandbox checkout page renders with its styles, and its Pay button posts and returns to the site', async () => {
    const slot = await insertSlot(ctx.database, 30);
    // From a network of its own: the route walk above took holds from the default address.
    const initiated = await ctx.app.inject({ method: 'POST', url: '/api/payment/initiate', payload: initiateBody(slot), remoteAddress: '192.0.2.10' });
    expect(initiated.statusCode).toBe(200);
    const session = initiated.json().data.paymentSession;
    await page.goto(session.checkoutUrl);
    const pay = page.getByRole('button', { name: /^Pay RM/ });
    await pay.waitFor();
    // The page's inline <style> applied: the Pay button is green.
    expect(await pay.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe('rgb(26, 127, 55)');
    await page.getByLabel('DuitNow QR').check();
    await pay.click();
    await page.waitForURL(`${baseUrl}/payment/success?reference=${session.clientReference}`);
    const status = (await ctx.app.inject({ url: `/api/payment/status/${session.id}`, headers: { [PAYMENT_KEY_HEADER]: session.holdToken } })).json();
    expect(status.data.payment).toMatchObject({ status: 'completed', method: 'duitnow_qr' });
  });
});
