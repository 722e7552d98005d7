// A network blip, not a remote that is down: the browser cannot reach admin-remote's files for a moment at page load
// (the requests fail), then can again. The error panel's Retry must load it in the same page, asking again for the
// entry and every chunk that failed; Chromium would otherwise hand each failed preload of the HTML to the next script
// of its URL.
import type { Page, Request, Route } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;

productSuite({}, (s) => ({ stack, browser } = s));

const isEntry = (url: URL) => url.pathname.endsWith('/remoteEntry.js');

/**
 * Opens /login while the admin remote's requests matching `blocked` fail, waits for the error panel, lets them
 * through again and clicks Retry once: the login form must show in the same document. Returns the URLs that had
 * failed and those answered after the Retry.
 */
async function blipThenRetry(page: Page, blocked: (url: URL) => boolean) {
  const matches = (url: URL) => url.origin === stack.urls.admin && blocked(url);
  const abort = (route: Route) => route.abort('connectionreset');
  const failed = new Set<string>();
  const onFailed = (request: Request) => {
    if (request.url().startsWith(stack.urls.admin)) failed.add(request.url());
  };
  page.on('requestfailed', onFailed);
  await page.route(matches, abort);

  await page.goto(`${stack.urls.shell}/login`);
  const panel = page.getByRole('alert').filter({ hasText: 'The staff area could not be loaded' });
  await panel.waitFor();
  page.off('requestfailed', onFailed);

  await page.unroute(matches, abort);
  const answered = new Set<string>();
  page.on('response', (response) => {
    if (response.url().startsWith(stack.urls.admin) && response.ok()) answered.add(response.url());
  });
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await panel.getByRole('button', { name: 'Retry' }).click();
  await page.getByLabel('Password').waitFor();
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  return { failed: [...failed], answered: [...answered] };
}

test('admin-remote unreachable at page load, then reachable: one Retry shows the login form without a reload, its entry and every chunk asked again', async () => {
  const page = await browser.context.newPage();
  const { failed, answered } = await blipThenRetry(page, () => true);
  // The entry and the route chunks the HTML preloads all failed...
  expect(failed.some((url) => isEntry(new URL(url)))).toBe(true);
  expect(failed.filter((url) => !isEntry(new URL(url))).length).toBeGreaterThan(0);
  // ...and each was fetched afresh once Retry was clicked.
  expect(answered).toEqual(expect.arrayContaining(failed));
});

test('only admin-remote\'s chunks fail (its entry loads): one Retry asks for them again and shows the login form', async () => {
  const page = await browser.context.newPage();
  const { failed, answered } = await blipThenRetry(page, (url) => !isEntry(url));
  expect(failed.length).toBeGreaterThan(0);
  expect(failed.some((url) => isEntry(new URL(url)))).toBe(false);
  expect(answered).toEqual(expect.arrayContaining(failed));
});
