// `/` rendered on the shell's server from the booking remote's render entry (issue 27): the slots are in the HTML in
// the parent's language, the page's JavaScript takes over with the same text and no second list request, a tap
// before then is not lost, and a broken render entry gives the client-rendered page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, eventually, nextWeekdays, publicSlots, slotButtonName } from '../support/journey';
import { desktopViewport, phoneViewport } from '../support/page';
import { distDir, remoteEntryUrl, type Stack } from '../support/product';
import { productSuite } from '../support/suite';
import noScriptEn from '../../booking-remote/src/server/locales/en.json';
import noScriptMs from '../../booking-remote/src/server/locales/ms.json';
import noScriptZh from '../../booking-remote/src/server/locales/zh.json';

let stack: Stack;
let browser: LaunchedBrowser;
let token: string;

productSuite({ staff: true }, (s) => ({ stack, browser, token } = s));

/** The first slot's time as each language writes it (the product's words: the timetable's buttons). */
const tenThirty = { en: '10:30 AM', ms: '10:30 pagi', zh: '上午10:30' } as const;
type Language = keyof typeof tenThirty;
const languages = Object.keys(tenThirty) as Language[];

const htmlOf = async (lang: Language) => (await fetch(`${stack.urls.shell}/`, { headers: { cookie: `lang=${lang}` } })).text();
/** The server-rendered HTML in `lang`: a language's first render after the list changed may miss the budget (that page is the client's). */
const renderedHtml = (lang: Language) =>
  eventually(async () => {
    const html = await htmlOf(lang);
    return html.includes('id="server-state"') ? html : undefined;
  }, `/ rendered on the server in ${lang}`);

/** Holds the booking remote's entry until the returned function is called: the server's page stays all there is. */
async function holdBookingRemote(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${stack.urls.booking}/remoteEntry.js*`, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

async function pageIn(context: BrowserContext, lang: Language, viewport = desktopViewport): Promise<Page> {
  await context.addCookies([{ name: 'lang', value: lang, url: stack.urls.shell }]);
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  return page;
}

beforeAll(async () => {
  // The earliest free slot is this one: no demo data in this suite.
  await addSlot(stack.urls.api, token, nextWeekdays(1)[0], '10:30');
  await addSlot(stack.urls.api, token, nextWeekdays(2)[1], '14:00');
});

test("the HTML of / has the first free slot's time as a button, in English, Malay and Chinese", async () => {
  const [first] = await publicSlots(stack.urls.api);
  expect(first.startTime).toBe('10:30');
  for (const lang of languages) {
    const html = await renderedHtml(lang);
    expect(html).toMatch(new RegExp(`<button[^>]*>${tenThirty[lang]}</button>`));
  }
  // The HTML stays small for a slow phone: the rendered page, its styles and its data gzipped.
  const gzipped = await fetch(`${stack.urls.shell}/`, { headers: { 'accept-encoding': 'gzip' } });
  expect(Number(gzipped.headers.get('content-length'))).toBeLessThan(30 * 1024);
});

test('the page its JavaScript draws has the same text, says nothing in the console and asks no list again', async () => {
  for (const lang of languages) {
    await renderedHtml(lang);
    // With JavaScript off the HTML shows the times and says booking needs JavaScript.
    // On a phone the first view is the first day with a free slot, whatever today is (a desk's week table opens on this
    // week, which has none left on a Friday afternoon).
    const noScript = await browser.context.browser()!.newContext({ javaScriptEnabled: false, viewport: phoneViewport });
    const htmlPage = await pageIn(noScript, lang, phoneViewport);
    await htmlPage.goto(`${stack.urls.shell}/`);
    expect(await htmlPage.getByRole('main').innerText()).toContain(tenThirty[lang]);
    // Said where the buttons are, in the page's language, with a way to book without it.
    const noScriptText = { en: noScriptEn, ms: noScriptMs, zh: noScriptZh }[lang]['noScript.text'];
    // (Playwright's text locators skip <noscript>: its rendered text is read as a parent reads it.)
    expect(await htmlPage.getByRole('main').innerText()).toContain(noScriptText);
    expect(await htmlPage.getByRole('main').locator('a[href^="tel:"]').count()).toBeGreaterThan(0);
    expect(await htmlPage.getByRole('main').locator('a[href^="mailto:"]').count()).toBe(1);
    await noScript.close();

    const page = await pageIn(browser.context, lang, phoneViewport);
    const said: string[] = [];
    page.on('console', (message) => ['error', 'warning'].includes(message.type()) && said.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => said.push(`pageerror: ${error.message}`));
    const listRequests: string[] = [];
    page.on('request', (request) => request.url().includes('/public/list') && listRequests.push(request.url()));
    const release = await holdBookingRemote(page);
    const serverMain = page.locator('main[data-server-rendered]');
    // A load may miss the render budget on this busy machine (then it is the client page): a few tries.
    for (let tries = 0; tries < 5 && !(await serverMain.count()); tries++) await page.goto(`${stack.urls.shell}/`, { waitUntil: 'domcontentloaded' });
    const serverText = await serverMain.innerText();
    release();
    await page.waitForFunction(() => !document.querySelector('main[data-server-rendered]'));
    // The app's own page (the timetable's health call done), drawn over the server's.
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('main').innerText()).toBe(serverText);
    expect(serverText).toContain(tenThirty[lang]);
    expect(said).toEqual([]);
    expect(listRequests).toEqual([]);
    await page.close();
  }
});

test('a tap on a slot before the JavaScript is ready opens that slot once it is', async () => {
  // The next weekday holds the earliest free time (beforeAll): the desk's first view is its week, whatever today is.
  const [day] = nextWeekdays(1);
  await addSlot(stack.urls.api, token, day, '15:00');
  await eventually(async () => (await renderedHtml('en')).includes(slotButtonName(day, '15:00').replace(/, .*/, '')) || undefined, 'the new slot in the HTML');
  const page = await pageIn(browser.context, 'en');
  // The booking remote arrives late, as on a slow phone: the server's page is all there is for a while.
  const release = await holdBookingRemote(page);
  await page.goto(`${stack.urls.shell}/`, { waitUntil: 'domcontentloaded' });
  const slot = page.getByRole('button', { name: slotButtonName(day, '15:00'), exact: true });
  await slot.waitFor();
  await page.waitForFunction(() => document.querySelector('script[src="/first-tap.js"]') !== null);
  await page.waitForLoadState('load').catch(() => undefined);
  expect(await page.locator('main[data-server-rendered]').count()).toBe(1);
  await slot.click();
  release();
  const dialog = page.getByRole('dialog', { name: 'Booking Details' });
  await dialog.waitFor();
  await dialog.getByText('3:00 PM').first().waitFor();
  await page.close();
});

test('a render entry that fails gives the client-rendered page, which shows the slots as before', async () => {
  const brokenRelease = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-booking-broken-render-'));
  const oldBooking = stack.remotes.booking;
  try {
    fs.cpSync(distDir('booking-remote'), brokenRelease, { recursive: true });
    for (const copy of ['render.js.br', 'render.js.gz']) fs.rmSync(path.join(brokenRelease, 'server', copy), { force: true });
    fs.writeFileSync(path.join(brokenRelease, 'server', 'render.js'), "exports.render = async () => { throw new Error('broken release'); };");
    const release = await stack.serveFolder(brokenRelease);
    stack.remotes.booking = remoteEntryUrl(release.url);
    const html = await eventually(async () => {
      const text = await htmlOf('en');
      return !text.includes('server-state') && text.includes(release.url) ? text : undefined;
    }, 'the client page from the broken release', 20_000);
    expect(html).toContain('<div id="root"></div>');
    const page = await pageIn(browser.context, 'en', phoneViewport);
    await page.goto(`${stack.urls.shell}/`);
    await page.getByRole('main').getByRole('button', { name: /10:30 AM/ }).first().waitFor();
    await page.close();
  } finally {
    stack.remotes.booking = oldBooking;
    fs.rmSync(brokenRelease, { recursive: true, force: true });
  }
});
