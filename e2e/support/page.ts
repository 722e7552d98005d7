// Page helpers shared by the journeys: where the timetable's slot buttons are, what the page fetched.
import type { BrowserContext, Locator, Page, Response } from 'playwright-core';

/** Phones see the next 14 weekdays; a desktop sees Monday-Friday of the first week with a free time (of three). */
export const phoneViewport = { width: 390, height: 844 };
export const desktopViewport = { width: 1280, height: 800 };

/** Slot buttons: buttons in the main region whose name carries a time (08:30, 8:30 AM...). */
export const slotButtons = (page: Page): Locator =>
  page.getByRole('main').getByRole('button', { name: /\d{1,2}[:.]\d{2}/ });

/** Records every response of the page (URL, status, type) from now on. */
export function recordResponses(page: Page): Response[] {
  const responses: Response[] = [];
  page.on('response', (response) => responses.push(response));
  return responses;
}

/** A new tab in the context (the persistent context's first tab stays open and unused). */
export async function newPage(context: BrowserContext, viewport = phoneViewport): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  return page;
}

/** Waits until the (first) element is visible; fails with the locator in the message after the timeout. */
export async function visible(locator: Locator, timeout = 30_000): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout });
}
