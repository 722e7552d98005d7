// The parent's steps on the public page, the booking dialog and the sandbox gateway's checkout page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Locator, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath, type LaunchedBrowser } from './browser';
import { showCarouselDay, slotButtonName } from './journey';

/** `child` and `year` (a year the school takes, brand.config.json's schoolDetails) are the child's, as the form asks. */
export type Visitor = { name: string; email: string; phone: string; school: string; child: string; year: string };

export const parent: Visitor = {
  name: 'Nurul Huda binti Ahmad',
  email: 'nurul.parent@example.com',
  phone: '012 345 6789',
  school: 'Seri Ilmu Private Secondary',
  child: 'Aiman bin Hakim',
  year: 'Form 2',
};

/** A phone with a touch screen (taps, not clicks), in a fresh profile. */
export async function launchTouchPhone(viewport = { width: 360, height: 740 }): Promise<LaunchedBrowser> {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-chromium-touch-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport,
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 2,
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      fs.rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

export const slotButton = (page: Page, date: string, time: string): Locator =>
  page.getByRole('main').getByRole('button', { name: slotButtonName(date, time), exact: true });

/**
 * Brings the slot's day on screen: the phone carousel's day, or on a desktop the week holding it (Next week).
 * Returns the slot's button (which may be absent: the caller decides whether it should be there).
 */
export async function showSlotDay(page: Page, date: string, time: string): Promise<Locator> {
  const button = slotButton(page, date, time);
  const carousel = page.locator('[aria-label="Next 14 weekdays"]');
  const weekName = page.getByRole('main').locator('caption').first();
  await page.getByRole('heading', { name: 'Book an assessment visit' }).waitFor({ timeout: 30_000 });
  await page.getByText('Loading available slots...').waitFor({ state: 'detached', timeout: 30_000 });
  if (await carousel.isVisible()) {
    await showCarouselDay(page, date);
    return button;
  }
  for (let week = 0; week < 3 && !(await button.count()); week++) {
    const next = page.getByRole('button', { name: 'Next week ›' });
    if (!(await next.isEnabled())) break;
    const before = await weekName.innerText();
    await next.click();
    await page.waitForFunction((text) => document.querySelector('main caption')?.textContent !== text, before);
  }
  return button;
}

/** Opens the booking dialog on the slot; returns the dialog. */
export async function openSlot(page: Page, date: string, time: string): Promise<Locator> {
  const button = await showSlotDay(page, date, time);
  await button.waitFor();
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Booking Details' });
  await dialog.waitFor();
  return dialog;
}

export async function fillDetails(dialog: Locator, visitor: Visitor): Promise<void> {
  await dialog.getByLabel('Visitor Name').fill(visitor.name);
  await dialog.getByLabel('Email Address').fill(visitor.email);
  await dialog.getByLabel('Contact Number').fill(visitor.phone);
  // Options carry the fee ("School – RM 75"): wait until pricing has filled them.
  const select = dialog.getByLabel('Selected School');
  await select.locator('option', { hasText: visitor.school }).waitFor({ state: 'attached' });
  const label = await select.locator('option', { hasText: visitor.school }).innerText();
  await select.selectOption({ label });
  await dialog.getByLabel("Child's Name").fill(visitor.child);
  // The school's years (the value is the year's English name).
  await dialog.getByLabel('Year or Grade Applied For').selectOption(visitor.year);
  // The parent's consent to the privacy notice (issue 28): required to book.
  await dialog.getByRole('checkbox', { name: /I am the parent or guardian and agree/ }).check();
}

/** Details → Payment Summary → Proceed to Payment → the sandbox checkout page. */
export async function bookToGateway(page: Page, date: string, time: string, visitor: Visitor = parent): Promise<void> {
  const dialog = await openSlot(page, date, time);
  await fillDetails(dialog, visitor);
  await dialog.getByRole('button', { name: 'Continue to Payment' }).click();
  const summary = page.getByRole('dialog', { name: 'Payment Summary' });
  await summary.waitFor();
  await summary.getByRole('button', { name: 'Proceed to Payment' }).click();
  await gatewayPage(page);
}

export async function gatewayPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Pay RM/ }).waitFor({ timeout: 30_000 });
}

export async function onGateway(page: Page, action: 'pay' | 'fail' | 'cancel'): Promise<void> {
  const name = { pay: /^Pay RM/, fail: 'Fail payment', cancel: 'Cancel' }[action];
  await page.getByRole('button', { name }).click();
}
