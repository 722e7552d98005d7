// Security headers of the shell's server (shell/server) and the remotes' folders served as `npm start` does: the shell's
// Content-Security-Policy follows remotes.json, Chromium enforces it on every page of a journey without a single
// violation, and no page of another origin can frame the product.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { PERMISSIONS_POLICY } from 'shared-api/contract';
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, demoLoginFrom, nextWeekdays, staffToken } from '../support/journey';
import { bookToGateway, onGateway } from '../support/parent';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;

productSuite({}, (s) => ({ stack, browser } = s));

/** A Content-Security-Policy header as directive → its sources. */
function directives(policy: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );
}

const originOf = (url: string) => new URL(url).origin;

test('the shell\'s pages carry the security headers, with a policy naming the remotes and the API of remotes.json', async () => {
  for (const path of ['/', '/login', '/secured/dashboard', '/payment/success?reference=x']) {
    const response = await fetch(`${stack.urls.shell}${path}`);
    expect([path, response.status]).toEqual([path, 200]);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY);
    const policy = directives(response.headers.get('content-security-policy'));
    expect(policy).toMatchObject({
      'default-src': ["'self'"],
      'script-src': ["'self'", stack.urls.booking, stack.urls.admin],
      'style-src': ["'self'", "'unsafe-inline'"],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    });
    expect(policy['connect-src']).toEqual(expect.arrayContaining(["'self'", stack.urls.api]));
    expect(policy['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:']));
  }

  // A remote moved to another origin: the next answer's policy lets the shell load it from there.
  const before = stack.remotes.admin;
  try {
    stack.remotes.admin = 'http://127.0.0.1:8099/admin/v2/remoteEntry.js';
    const policy = directives((await fetch(`${stack.urls.shell}/login`)).headers.get('content-security-policy'));
    expect(policy['script-src']).toEqual(["'self'", stack.urls.booking, 'http://127.0.0.1:8099']);
  } finally {
    stack.remotes.admin = before;
  }

  // Error reports switched on: the policy lets the page post them to that endpoint's origin, and only then.
  expect(directives((await fetch(`${stack.urls.shell}/`)).headers.get('content-security-policy'))['connect-src']).not.toContain(
    'https://errors.example.my',
  );
  try {
    stack.remotes.errorReportUrl = 'https://errors.example.my/browser/report';
    const policy = directives((await fetch(`${stack.urls.shell}/`)).headers.get('content-security-policy'));
    expect(policy['connect-src']).toEqual(expect.arrayContaining(["'self'", stack.urls.api, 'https://errors.example.my']));
  } finally {
    delete stack.remotes.errorReportUrl;
  }
});

test('the remotes\' files load from the shell\'s origin, and their own pages may call the API', async () => {
  for (const remote of [stack.urls.booking, stack.urls.admin]) {
    const entry = await fetch(`${remote}/remoteEntry.js`, { headers: { origin: stack.urls.shell } });
    expect(entry.status).toBe(200);
    expect(entry.headers.get('access-control-allow-origin')).toBe('*');
    expect(entry.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(entry.headers.get('x-content-type-options')).toBe('nosniff');

    const page = await fetch(`${remote}/`);
    expect(page.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY);
    const policy = directives(page.headers.get('content-security-policy'));
    expect(policy['connect-src']).toEqual(["'self'", stack.urls.api]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
  }
  // The shell's own files are for the shell's page only.
  const shellHtml = await (await fetch(`${stack.urls.shell}/`)).text();
  const mainScript = /src="\/(main\.[0-9a-f]+\.js)"/.exec(shellHtml)?.[1];
  const main = await fetch(`${stack.urls.shell}/${mainScript}`);
  expect(main.headers.get('cross-origin-resource-policy')).toBe('same-origin');
});

type Violation = { documentURI: string; violatedDirective: string; blockedURI: string };

/**
 * Every securitypolicyviolation event of the page's documents from now on (across navigations), and each complaint
 * of the browser about a Permissions-Policy (an unknown feature, a feature the page asked for and was denied).
 */
async function recordViolations(page: Page): Promise<Violation[]> {
  const violations: Violation[] = [];
  page.on('console', (message) => {
    if (/Permissions[- ]Policy/i.test(message.text())) violations.push({ documentURI: page.url(), violatedDirective: 'permissions-policy', blockedURI: message.text() });
  });
  await page.exposeBinding('reportCspViolation', (_source, violation: Violation) => void violations.push(violation));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportCspViolation: (violation: Violation) => void }).reportCspViolation({
        documentURI: event.documentURI,
        violatedDirective: event.violatedDirective,
        blockedURI: event.blockedURI,
      }),
    ),
  );
  return violations;
}

test('a parent paying and staff on the dashboard: no page of the product reports a Content-Security-Policy or Permissions-Policy violation', async () => {
  const token = await staffToken(stack.urls.api, demoLoginFrom(stack.logs));
  const [day] = nextWeekdays(1);
  await addSlot(stack.urls.api, token, day, '10:00');
  const page = await browser.context.newPage();
  const violations = await recordViolations(page);

  // The timetable, the booking dialog and, after the gateway, the payment result page.
  await page.goto(`${stack.urls.shell}/`);
  await bookToGateway(page, day, '10:00');
  await onGateway(page, 'pay');
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 45_000 });
  await page.goto(`${stack.urls.shell}/payment/failure?payment_id=unknown`);
  await page.getByRole('main').getByText(/./).first().waitFor();

  // Staff: login, the dashboard and its create dialog.
  await page.goto(`${stack.urls.shell}/login`);
  const login = demoLoginFrom(stack.logs);
  await page.getByLabel('Email').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('heading', { name: 'Assessment Dashboard' }).waitFor();
  await page.getByRole('button', { name: /Actions/ }).click();
  await page.getByRole('menuitem', { name: 'Create New Slot' }).click();
  await page.getByRole('dialog', { name: 'Create New Slots' }).waitFor();
  await page.waitForLoadState('networkidle');

  // The gateway's checkout page is the API's, with its own policy.
  expect(violations.filter((violation) => originOf(violation.documentURI) !== stack.urls.api)).toEqual([]);
});

test('a page of another origin cannot frame the dashboard', async () => {
  const dashboard = `${stack.urls.shell}/secured/dashboard`;
  const framer = http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      request.url === '/control'
        ? '<p>A page that lets itself be framed</p>'
        : `<iframe name="product" src="${dashboard}" onload="window.productLoaded = true"></iframe><iframe name="control" src="/control"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
  try {
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${(framer.address() as AddressInfo).port}/`);
    // Framing works on this page: the control frame renders.
    await page.frame({ name: 'control' })!.getByText('A page that lets itself be framed').waitFor();
    await page.waitForFunction(() => (window as unknown as { productLoaded?: boolean }).productLoaded === true);
    const product = page.frame({ name: 'product' })!;
    expect(product.url()).not.toBe(dashboard);
    expect(await product.locator('#root').count()).toBe(0);
  } finally {
    await new Promise((resolve) => {
      framer.close(resolve);
      framer.closeAllConnections();
    });
  }
});
