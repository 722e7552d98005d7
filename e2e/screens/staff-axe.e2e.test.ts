// Every staff screen at a 1366 px desk (and the dashboard on a 390 px phone), against the demo seed: axe-core finds no
// violation on any of them, and each is photographed (desk-*.png).
import type { Page } from 'playwright-core';
import { axeViolations, describeViolations } from '../support/axe';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { demoLoginFrom, eventually, startJourney, passSecondFactor } from '../support/journey';
import { emlFiles, mailTo } from '../support/mail';
import { startStack, type Stack } from '../support/product';

const desk = { width: 1366, height: 768 };
const phone = { width: 390, height: 844 };

let stack: Stack;
let browser: LaunchedBrowser;

beforeAll(async () => {
  // The demo seed (on by default): three weeks of weekday slots, a few booked with no payment behind them.
  stack = await startStack();
  browser = await launchBrowser({ viewport: desk });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Dialogs fade and zoom in: wait until no animation runs, so axe and the picture see the settled screen. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'), undefined, { timeout: 10_000 });
}

const checked: string[] = [];
/** axe on the screen as it is; the screen's name in the failure. */
async function expectNoViolations(page: Page, screen: string): Promise<void> {
  await settled(page);
  const found = describeViolations(await axeViolations(page));
  expect({ screen, violations: found }).toEqual({ screen, violations: [] });
  checked.push(screen);
}

test('axe finds no violation on any staff screen: login, password reset, register, dashboard views and dialogs, colleagues, audit', async () => {
  const journey = startJourney('staff-axe');
  const login = demoLoginFrom(stack.logs);
  // Signed out whatever an earlier attempt left.
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await page.setViewportSize(desk);

  // Signed out: login, forgot password, a reset link (a bad one, then a working one), register.
  await page.goto(`${stack.urls.shell}/login`);
  await page.getByRole('heading', { name: 'Staff login' }).waitFor();
  await expectNoViolations(page, 'login');
  await journey.shot(page, 'desk-login');

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByRole('button', { name: 'Send reset link' }).waitFor();
  await expectNoViolations(page, 'forgot password');
  await page.getByLabel('Email').fill(login.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByText('If an account exists for this address, a reset link has been sent.').waitFor();
  await expectNoViolations(page, 'forgot password: sent');

  await page.goto(`${stack.urls.shell}/reset-password/${'x'.repeat(43)}`);
  await page.getByRole('alert').getByText(/invalid, has already been used or has expired/).waitFor();
  await expectNoViolations(page, 'reset password: a spent link');
  const mail = await eventually(async () => (await emlFiles(`${stack.dataDir}/mail`)).find(mailTo(login.email)), `reset mail to ${login.email}`);
  const link = /https?:\/\/\S+\/reset-password\/[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0];
  await page.goto(link);
  await page.getByLabel('New password again').waitFor();
  await expectNoViolations(page, 'reset password: the form');
  await journey.shot(page, 'desk-reset-password');

  await page.goto(`${stack.urls.shell}/register`);
  await page.getByRole('link', { name: 'Log in first' }).waitFor();
  await expectNoViolations(page, 'register, signed out');

  // Signed in: the dashboard's three views.
  await page.goto(`${stack.urls.shell}/login`);
  await page.getByLabel('Email').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/secured/dashboard');
  const filter = page.getByRole('group', { name: 'Filter slots' });
  await filter.getByRole('button', { name: 'Available' }).click();
  await page.getByRole('button', { name: /^Delete slot #/ }).first().waitFor();
  await expectNoViolations(page, 'dashboard: Available');
  await journey.shot(page, 'desk-dashboard-available');

  await page.getByRole('button', { name: /^Delete slot #/ }).first().click();
  const confirm = page.getByRole('dialog', { name: 'Delete slot' });
  await confirm.waitFor();
  await expectNoViolations(page, 'delete confirm');
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'detached' });

  await filter.getByRole('button', { name: 'Booked' }).click();
  const viewDetails = page.getByRole('button', { name: /^View Details of slot #/ }).first();
  await viewDetails.waitFor();
  await expectNoViolations(page, 'dashboard: Booked');
  // The picture shows the table: who booked, after the spec's columns.
  await page.locator('caption', { hasText: /booked slots? found/ }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  // Scrolled into view below the sticky header, not under it (its height is the page's scroll padding).
  const headerBottom = await page.getByRole('banner').evaluate((el) => el.getBoundingClientRect().bottom);
  expect(await page.locator('caption', { hasText: /booked slots? found/ }).evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(headerBottom - 1);
  // An email address in the table wraps after its @ or before a dot, never inside a word.
  const visitorCell = page.getByRole('cell', { name: /@example\.com/ }).first();
  expect(await visitorCell.locator('wbr').count()).toBeGreaterThan(0);
  await journey.shot(page, 'desk-dashboard-booked');

  // A demo booking (no payment behind it): details, move and cancel, each without confirming.
  await viewDetails.click();
  const details = page.getByRole('dialog', { name: 'Appointment Details' });
  await details.getByRole('region', { name: 'History' }).waitFor();
  await details.getByText('Not paid (booked by staff)').waitFor();
  await expectNoViolations(page, 'appointment details');
  await journey.shot(page, 'desk-details-dialog');
  await details.getByRole('button', { name: 'Move booking' }).click();
  const move = page.getByRole('dialog', { name: 'Move booking to another slot' });
  await move.getByRole('combobox', { name: 'New slot' }).locator('option').nth(1).waitFor({ state: 'attached' });
  await expectNoViolations(page, 'move booking');
  await move.getByRole('button', { name: 'Keep current time' }).click();
  await move.waitFor({ state: 'detached' });
  await details.getByRole('button', { name: 'Cancel booking' }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancel booking' });
  await cancel.getByText('Nothing was paid for this booking, so there is nothing to refund.').waitFor();
  await expectNoViolations(page, 'cancel booking');
  await cancel.getByRole('button', { name: 'Keep booking' }).click();
  await cancel.waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');
  await details.waitFor({ state: 'detached' });

  await filter.getByRole('button', { name: 'Past' }).click();
  await page.getByText('Showing: Past Slots').waitFor();
  await page.getByText(/past slots? found|No Past Slots/).first().waitFor();
  await expectNoViolations(page, 'dashboard: Past');

  // Create New Slot with three times over four weeks: a long preview, the buttons still in view.
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Create New Slot' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Slots' });
  const tomorrow = await create.getByLabel('Start date').inputValue();
  const inFourWeeks = new Date(Date.parse(`${tomorrow}T00:00:00Z`) + 27 * 86_400_000).toISOString().slice(0, 10);
  await create.getByLabel('End date').fill(inFourWeeks);
  await create.getByRole('button', { name: 'Add another time' }).click();
  await create.getByLabel('Start time 2', { exact: true }).fill('10:00');
  await create.getByRole('button', { name: 'Add another time' }).click();
  await create.getByLabel('Start time 3', { exact: true }).fill('14:00');
  await create.getByText(/slots? will be created|No slots will be created/).first().waitFor();
  await expectNoViolations(page, 'create slots');
  const button = await create.getByRole('button', { name: 'Create Slots' }).boundingBox();
  expect(button && button.y + button.height).toBeLessThanOrEqual(desk.height);
  await journey.shot(page, 'desk-create-dialog');
  await create.getByRole('button', { name: 'Cancel' }).click();
  await create.waitFor({ state: 'detached' });

  // Colleagues, adding one (register signed in), the audit trail.
  await page.getByRole('link', { name: 'Colleagues' }).click();
  // The first admin action: the second factor's set-up, then the page (issue 35).
  await page.getByRole('heading', { name: 'Set up your second factor' }).waitFor();
  await expectNoViolations(page, 'second factor set-up');
  await journey.shot(page, 'desk-second-factor');
  await passSecondFactor(page, login.email);
  await page.getByRole('heading', { name: 'Colleagues' }).waitFor();
  await page.getByRole('button', { name: /^Disable/ }).first().waitFor().catch(() => undefined);
  await expectNoViolations(page, 'colleagues');
  await page.getByRole('link', { name: 'Add a colleague' }).click();
  await page.getByRole('button', { name: 'Register' }).waitFor();
  await expectNoViolations(page, 'register, signed in');
  await page.goto(`${stack.urls.shell}/secured/audit`);
  await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
  await page.getByText(/^Page \d+ of \d+/).waitFor();
  await expectNoViolations(page, 'audit trail');
  // The From column is in view at 1366 px: nothing scrolls sideways.
  const table = page.locator('[data-table-scroll]').first();
  expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await journey.shot(page, 'desk-audit');

  // The dashboard on a phone.
  await page.setViewportSize(phone);
  await page.getByRole('link', { name: 'Back to the dashboard' }).click();
  await page.getByRole('heading', { name: 'Assessment Dashboard' }).waitFor();
  await page.getByRole('group', { name: 'Filter slots' }).getByRole('button', { name: 'Booked' }).click();
  const firstDetails = page.getByRole('button', { name: /^View Details of slot #/ }).first();
  await firstDetails.waitFor();
  await expectNoViolations(page, 'dashboard on a phone');
  // Each booking a card: who, the child, the school, when and the phone in view, nothing wider than the phone.
  const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await noSidewaysScroll()).toBe(true);
  await firstDetails.evaluate((el) => el.closest('li')?.scrollIntoView({ block: 'center' }));
  await journey.shot(page, 'desk-dashboard-booked-phone');
  // The audit trail on a phone: a card per record, the emails whole words.
  await page.getByRole('link', { name: 'Audit trail' }).click();
  await page.getByText(/^Page \d+ of \d+/).waitFor();
  expect(await noSidewaysScroll()).toBe(true);
  await journey.shot(page, 'desk-audit-phone');
  // The privacy page on a phone: a request recorded shows as a card, the parent's email whole.
  await page.getByRole('link', { name: 'Privacy' }).click();
  await page.getByRole('heading', { name: 'Access and correction requests' }).waitFor();
  await page.getByLabel("Parent's email or phone").fill('aisyah.demo@example.com');
  await page.getByRole('button', { name: 'Record request' }).click();
  await page.getByText('Request recorded').first().waitFor();
  await expectNoViolations(page, 'privacy on a phone');
  expect(await noSidewaysScroll()).toBe(true);
  await page.getByRole('heading', { name: 'Access and correction requests' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await journey.shot(page, 'desk-privacy-phone');
  await page.goto(`${stack.urls.shell}/secured/dashboard`);
  await page.getByRole('heading', { name: 'Assessment Dashboard' }).waitFor();
  await journey.finish(page, 'desk-dashboard-phone');

  expect(checked).toHaveLength(20);
});
