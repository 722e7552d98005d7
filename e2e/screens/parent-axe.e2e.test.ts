// Every parent screen in English and Bahasa Melayu (the booking page in 中文 too), against the demo seed: axe-core finds
// no violation on the booking page (390 px phone and 1366 px desk), the booking dialog's first step, the summary, the
// success page, each failure page, the page of a payment cancelled on the gateway and the manage page (active and
// cancelled). Screens are found by the page's own words, read from the catalogues (the language under test).
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { LOCALE_COOKIE, PaymentFailureCode, type Locale } from 'shared-api/contract';
import { axeViolations, describeViolations } from '../support/axe';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startJourney } from '../support/journey';
import { gatewayPage, onGateway, parent } from '../support/parent';
import { repoRoot, startStack, type Stack } from '../support/product';

const desk = { width: 1366, height: 768 };
const phone = { width: 390, height: 844 };

let stack: Stack;
let browser: LaunchedBrowser;

beforeAll(async () => {
  // The demo seed (on by default): three weeks of weekday slots.
  stack = await startStack();
  browser = await launchBrowser({ viewport: phone });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A feature's static text in `locale`, as its catalogue writes it. */
function words(feature: string, locale: Locale): (id: string) => string {
  const file = path.join(repoRoot, 'booking-remote', 'src', 'features', feature, 'locales', `${locale}.json`);
  const catalogue = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  return (id) => {
    const text = catalogue[id];
    if (typeof text !== 'string') throw new Error(`${feature}/${locale}.json has no "${id}"`);
    return text;
  };
}

/** Dialogs fade and zoom in: wait until no animation runs, so axe sees the settled screen. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'), undefined, { timeout: 10_000 });
}

const checked: string[] = [];
async function expectNoViolations(page: Page, screen: string): Promise<void> {
  await settled(page);
  const found = describeViolations(await axeViolations(page));
  expect({ screen, violations: found }).toEqual({ screen, violations: [] });
  checked.push(screen);
}

/** A fresh tab speaking `locale` (the switcher's cookie), at `viewport`. */
async function pageIn(locale: Locale, viewport = phone): Promise<Page> {
  await browser.context.addCookies([{ name: LOCALE_COOKIE, value: locale, url: stack.urls.shell }]);
  const page = await browser.context.newPage();
  await page.setViewportSize(viewport);
  return page;
}

/** The timetable with its slots loaded, in `locale`. */
async function bookingPage(page: Page, locale: Locale): Promise<void> {
  const timetable = words('timetable', locale);
  await page.goto(`${stack.urls.shell}/`);
  await page.getByRole('heading', { level: 1, name: timetable('title') }).waitFor({ timeout: 30_000 });
  await page.getByText(timetable('loading')).waitFor({ state: 'detached', timeout: 30_000 });
  expect(await page.evaluate(() => document.documentElement.lang)).toBe({ en: 'en', ms: 'ms', zh: 'zh-Hans' }[locale]);
}

/**
 * On the phone's carousel, the `nth` slot of the strip's `day` (0: the first weekday shown), tapped: the dialog's first
 * step. The strip's days and the slides are found by their place, whatever the language.
 */
async function openSlot(page: Page, locale: Locale, day: number, nth = 0): Promise<Locator> {
  await page.getByRole('toolbar').getByRole('button').nth(day).click();
  const current = page.locator('[aria-roledescription="slide"]:not([aria-hidden="true"])');
  await page.waitForFunction(
    (n) => {
      const slides = [...document.querySelectorAll('[aria-roledescription="slide"]')];
      const track = slides[n]?.parentElement;
      return slides[n]?.getAttribute('aria-hidden') !== 'true' && track && Math.abs(track.scrollLeft - n * track.clientWidth) < 2;
    },
    day,
    { timeout: 5_000 },
  );
  await current.getByRole('button').filter({ hasText: /\d{1,2}[:.]\d{2}/ }).nth(nth).click();
  const dialog = page.getByRole('dialog', { name: words('booking-dialog', locale)('titleDetails') });
  await dialog.locator('[name="visitorName"]').waitFor();
  // Priced: the school options carry their fee.
  await dialog.locator('[name="selectedSchool"] option', { hasText: 'RM' }).first().waitFor({ state: 'attached' });
  return dialog;
}

async function fillDetails(dialog: Locator, email: string): Promise<void> {
  await dialog.locator('[name="visitorName"]').fill(parent.name);
  await dialog.locator('[name="visitorEmail"]').fill(email);
  await dialog.locator('[name="visitorContactNo"]').fill(parent.phone);
  await dialog.locator('[name="selectedSchool"]').selectOption(parent.school);
  await dialog.locator('[name="childName"]').fill(parent.child);
  await dialog.locator('[name="childYear"]').selectOption(parent.year);
  // The parent's consent to the privacy notice (issue 28), in whichever language the page speaks.
  await dialog.locator('[name="privacyConsent"]').check();
}

/** Details → summary (axe there when asked) → the sandbox gateway. */
async function toGateway(page: Page, locale: Locale, email: string, day: number, onSummary?: () => Promise<void>): Promise<void> {
  const dialogWords = words('booking-dialog', locale);
  const dialog = await openSlot(page, locale, day);
  await fillDetails(dialog, email);
  await dialog.getByRole('button', { name: dialogWords('continueToPayment') }).click();
  const summary = page.getByRole('dialog', { name: dialogWords('titlePayment') });
  await summary.getByRole('button', { name: dialogWords('proceedToPayment') }).waitFor();
  await onSummary?.();
  await summary.getByRole('button', { name: dialogWords('proceedToPayment') }).click();
  await gatewayPage(page);
}

describe.each<Locale>(['en', 'ms'])('parent screens in %s', (locale) => {
  const result = words('payment-result', locale);
  const manageWords = words('manage-booking', locale);
  const email = `axe.${locale}@example.com`;

  test('booking page (phone and desk), dialog, summary, success, manage (active, cancelled)', async () => {
    const journey = startJourney(`parent-axe-${locale}`);
    const page = await pageIn(locale, desk);
    await bookingPage(page, locale);
    await expectNoViolations(page, `${locale}: booking page, desk`);
    await journey.shot(page, `axe-${locale}-timetable-desk`);

    await page.setViewportSize(phone);
    await bookingPage(page, locale);
    await expectNoViolations(page, `${locale}: booking page, phone`);
    await journey.shot(page, `axe-${locale}-timetable-phone`);

    const dialog = await openSlot(page, locale, 2);
    await expectNoViolations(page, `${locale}: booking dialog, step 1`);
    await journey.shot(page, `axe-${locale}-booking-details-phone`);
    await dialog.getByRole('button', { name: words('booking-dialog', locale)('cancel') }).click();
    await dialog.waitFor({ state: 'detached' });

    // A week ahead: well before the 24-hour cut-off, so the manage page can cancel.
    await toGateway(page, locale, email, 5, async () => {
      await expectNoViolations(page, `${locale}: summary`);
      await journey.shot(page, `axe-${locale}-summary-phone`);
    });
    await onGateway(page, 'pay');
    await page.getByRole('heading', { name: result('success.title') }).waitFor({ timeout: 45_000 });
    const manageLink = page.locator('a[href*="/booking/manage/"]').first();
    await manageLink.waitFor();
    await expectNoViolations(page, `${locale}: payment success`);
    await journey.shot(page, `axe-${locale}-success-phone`);

    await manageLink.click();
    const main = page.getByRole('main');
    await page.getByRole('heading', { level: 1, name: manageWords('title') }).waitFor();
    await main.getByRole('button', { name: manageWords('cancelButton') }).waitFor();
    await expectNoViolations(page, `${locale}: manage, active`);
    await journey.shot(page, `axe-${locale}-manage-phone`);

    await main.getByRole('button', { name: manageWords('cancelButton') }).click();
    const confirm = page.getByRole('dialog', { name: manageWords('cancel.title') });
    await confirm.waitFor();
    await expectNoViolations(page, `${locale}: manage, cancel dialog`);
    await confirm.getByRole('button', { name: manageWords('cancelButton') }).click();
    await main.getByRole('link', { name: manageWords('bookAnother') }).waitFor({ timeout: 30_000 });
    await page.reload();
    await main.getByRole('link', { name: manageWords('bookAnother') }).waitFor({ timeout: 30_000 });
    await expectNoViolations(page, `${locale}: manage, cancelled`);
    await journey.finish(page, `axe-${locale}-manage-cancelled-phone`);
  });

  test('payment failure pages, and a payment cancelled on the gateway', async () => {
    const page = await pageIn(locale);
    for (const code of [PaymentFailureCode.failed, PaymentFailureCode.declined, PaymentFailureCode.expired]) {
      await page.goto(`${stack.urls.shell}/payment/failure?error=${code}`);
      await page.getByRole('heading', { name: result('failure.title') }).waitFor({ timeout: 30_000 });
      await expectNoViolations(page, `${locale}: payment failure, ${code}`);
    }
    await page.goto(`${stack.urls.shell}/payment/failure?error=${PaymentFailureCode.cancelled}`);
    await page.getByRole('heading', { name: result('failure.cancelledTitle') }).waitFor({ timeout: 30_000 });
    await expectNoViolations(page, `${locale}: payment cancelled, no draft`);

    // Cancelled on the gateway: the page names the time and offers it again while it is free.
    await bookingPage(page, locale);
    await toGateway(page, locale, email, 6);
    await onGateway(page, 'cancel');
    await page.getByRole('heading', { name: result('failure.cancelledTitle') }).waitFor({ timeout: 30_000 });
    await page.getByText(result('failure.cancelledText')).waitFor();
    await expectNoViolations(page, `${locale}: payment cancelled on the gateway`);
    await startJourney(`parent-axe-${locale}-cancelled`).finish(page, `axe-${locale}-gateway-cancelled-phone`);
  });
});

test('the booking page in 中文 (phone and desk)', async () => {
  const page = await pageIn('zh', desk);
  await bookingPage(page, 'zh');
  await expectNoViolations(page, 'zh: booking page, desk');
  await page.setViewportSize(phone);
  await bookingPage(page, 'zh');
  await expectNoViolations(page, 'zh: booking page, phone');
  await startJourney('parent-axe-zh').finish(page, 'axe-zh-timetable-phone');
  // Every screen above was checked (a skipped step would leave one out).
  expect(checked).toHaveLength(2 * 13 + 2);
});
