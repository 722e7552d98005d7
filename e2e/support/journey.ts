// What every journey shares: its timing line, its last-screen screenshot, and the API calls that set the scene.
import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from 'playwright-core';
import { TIMEZONE } from 'shared-api/contract';
import { dayjs } from 'shared-api/zoned-dayjs';
import { repoRoot } from './product';

export const desktop = { width: 1440, height: 900 };
export const phone = { width: 360, height: 740 };

/**
 * Where journeys save their last screens: an ignored folder, so `npm test` changes no tracked file.
 * `npm run screenshots` points it at docs/screenshots to refresh the pictures the docs show.
 */
export const screenshotDir = process.env.SCREENSHOT_DIR ? path.resolve(repoRoot, process.env.SCREENSHOT_DIR) : path.join(repoRoot, '.e2e-tmp', 'screenshots');

/** Starts the clock of a journey; `finish` saves the last screen and prints `journey <name>: <seconds>s`. */
export function startJourney(name: string) {
  const started = Date.now();
  return {
    finish: async (page: Page, file = name) => {
      fs.mkdirSync(screenshotDir, { recursive: true });
      await page.screenshot({ path: path.join(screenshotDir, `${file}.png`), fullPage: false });
      const line = `journey ${name}: ${((Date.now() - started) / 1000).toFixed(1)}s`;
      process.stdout.write(`${line}\n`);
    },
    /** A further screenshot of the same journey (e.g. the phone layout). */
    shot: async (page: Page, file: string) => {
      fs.mkdirSync(screenshotDir, { recursive: true });
      await page.screenshot({ path: path.join(screenshotDir, `${file}.png`), fullPage: false });
    },
  };
}

type Envelope<T> = { success: boolean; data: T; message: string; error?: string };

export async function apiCall<T>(
  api: string,
  method: string,
  route: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: Envelope<T> }> {
  const response = await fetch(`${api}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

/** The demo login the API prints on its first start (admin line of server/src/seed.ts). */
export function demoLoginFrom(logs: string[]): { email: string; password: string } {
  for (const line of logs) {
    const match = /([\w.+-]+@[\w.-]+\.\w+)\S*\s*(?:\/|password:?)\s*(\S+)/i.exec(line);
    if (match && /login|admin|demo/i.test(line)) return { email: match[1], password: match[2] };
  }
  throw new Error(`The API printed no demo login:\n${logs.slice(0, 20).join('\n')}`);
}

/** The authenticator app of the e2e admin: the key read off the set-up page, and the last 30-second step it gave. */
const authenticator = new Map<string, { secret: string; lastStep: number }>();

/** The code an authenticator app shows, never the same step twice (the API accepts each code once). */
async function nextCode(secret: string, last: number): Promise<{ code: string; step: number }> {
  const now = Math.floor(Date.now() / 30_000);
  // The API accepts the next step too (a phone a little ahead); past that, wait for the clock.
  if (last > now) await new Promise((resolve) => setTimeout(resolve, (last - now) * 30_000 + 1_000 - (Date.now() % 30_000)));
  const step = Math.max(Math.floor(Date.now() / 30_000), last + 1);
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return { code: totp.generate({ timestamp: step * 30_000 }), step };
}

/**
 * At an admin page's second-factor step, as an admin with an authenticator app would: on first use press "Start the
 * set-up", read the key shown under the QR code, give the app's first code and keep the recovery codes; later, give
 * the current code. `account` names whose app it is (the demo admin's email).
 */
export async function passSecondFactor(page: Page, account: string, scope: Page | Locator = page): Promise<void> {
  const start = scope.getByRole('button', { name: 'Start the set-up' });
  const confirmIt = scope.getByRole('button', { name: 'Confirm', exact: true });
  await start.or(confirmIt).first().waitFor();
  if (await start.isVisible()) {
    await start.click();
    const key = scope.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    const secret = (await key.innerText()).replace(/\s+/g, '');
    const { code, step } = await nextCode(secret, 0);
    authenticator.set(account, { secret, lastStep: step });
    await scope.getByLabel('Code', { exact: true }).fill(code);
    await scope.getByRole('button', { name: 'Confirm the set-up' }).click();
    await scope.getByRole('list', { name: 'Your recovery codes' }).waitFor();
    await scope.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    return;
  }
  const app = authenticator.get(account);
  if (!app) throw new Error(`${account} has a second factor this test did not set up`);
  const { code, step } = await nextCode(app.secret, app.lastStep);
  app.lastStep = step;
  await scope.getByLabel('Code', { exact: true }).fill(code);
  await confirmIt.click();
  await confirmIt.waitFor({ state: 'detached' });
}

export async function staffToken(api: string, login: { email: string; password: string }): Promise<string> {
  const { status, body } = await apiCall<{ token: string }>(api, 'POST', '/auth/login', login);
  if (status !== 200) throw new Error(`login failed: ${status} ${body.message}`);
  return body.data.token;
}

export type StaffSlotRow = { id: number; date: string; startTime: string; endTime: string; isBooked: boolean; visitorEmail?: string | null };

export async function staffSlots(api: string, token: string): Promise<StaffSlotRow[]> {
  const { body } = await apiCall<{ timeSlots: { rows: StaffSlotRow[] } }>(api, 'GET', '/slot/list', undefined, token);
  return body.data.timeSlots.rows;
}

/** Adds one 30-minute slot as staff; returns its id. */
export async function addSlot(api: string, token: string, date: string, startTime: string): Promise<number> {
  const [h, m] = startTime.split(':').map(Number);
  const end = h * 60 + m + 30;
  const endTime = `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
  const { status, body } = await apiCall<unknown>(api, 'POST', '/slot/add', { date, startTime, endTime }, token);
  if (status >= 300) throw new Error(`slot/add ${date} ${startTime}: ${status} ${body.message}`);
  const row = (await staffSlots(api, token)).find((slot) => slot.date.startsWith(date) && slot.startTime.startsWith(startTime));
  if (!row) throw new Error(`slot ${date} ${startTime} not listed after adding it`);
  return row.id;
}

export type PublicSlotRow = { id: number; date: string; startTime: string };

export async function publicSlots(api: string): Promise<PublicSlotRow[]> {
  const { body } = await apiCall<{ slots: PublicSlotRow[] }>(api, 'GET', '/public/list?limit=100&page=1');
  return body.data.slots;
}

/** Today's date in GMT+8 and the next weekdays after it (YYYY-MM-DD). */
export function todayMY(): string {
  return dayjs().tz(TIMEZONE).format('YYYY-MM-DD');
}

export function nextWeekdays(count: number, from = todayMY()): string[] {
  const days: string[] = [];
  for (let d = dayjs.tz(from, 'YYYY-MM-DD', TIMEZONE).add(1, 'day'); days.length < count; d = d.add(1, 'day')) {
    if (d.day() !== 0 && d.day() !== 6) days.push(d.format('YYYY-MM-DD'));
  }
  return days;
}

export function addDays(date: string, days: number): string {
  return dayjs.tz(date, 'YYYY-MM-DD', TIMEZONE).add(days, 'day').format('YYYY-MM-DD');
}

export function weekdaysBetween(start: string, end: string): string[] {
  const days: string[] = [];
  for (let d = dayjs.tz(start, 'YYYY-MM-DD', TIMEZONE); d.format('YYYY-MM-DD') <= end; d = d.add(1, 'day')) {
    if (d.day() !== 0 && d.day() !== 6) days.push(d.format('YYYY-MM-DD'));
  }
  return days;
}

/** The accessible name of a timetable slot button: "4:00 PM, Monday 23 November 2026". */
export function slotButtonName(date: string, time24: string): string {
  const [h, m] = time24.split(':').map(Number);
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const long = dayjs.tz(date, 'YYYY-MM-DD', TIMEZONE).format('dddd D MMMM YYYY');
  return `${h12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}, ${long}`;
}

/** Polls `check` until it returns a value (short polling, no fixed sleeps). */
export async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** Phone timetable: shows `date` in the 14-weekday carousel by its day in the day strip, and waits until the track has settled there. */
export async function showCarouselDay(page: Page, date: string, tap = false): Promise<void> {
  const long = dayjs.tz(date, 'YYYY-MM-DD', TIMEZONE).format('dddd D MMMM YYYY');
  const carousel = page.locator('[aria-label="Next 14 weekdays"]');
  const label = await carousel.locator(`[aria-roledescription="slide"][aria-label^="${long} ("]`).getAttribute('aria-label', { timeout: 30_000 });
  const target = Number(/\((\d+) of/.exec(label ?? '')?.[1]) - 1;
  // The strip's day is named "<date>: <free slots>".
  const day = carousel.getByRole('toolbar', { name: 'Choose a day' }).getByRole('button', { name: new RegExp(`^${long}: `) });
  await (tap ? day.tap() : day.click());
  // Settled: that slide is the current one and the track has stopped on its page.
  await page.waitForFunction(
    (n) => {
      const region = document.querySelector('[aria-label="Next 14 weekdays"]');
      const current = region?.querySelector('[aria-roledescription="slide"]:not([aria-hidden="true"])');
      const track = current?.parentElement;
      return Boolean(current?.getAttribute('aria-label')?.includes(`(${n + 1} of`) && track && Math.abs(track.scrollLeft - n * track.clientWidth) < 2);
    },
    target,
    { timeout: 5_000 },
  );
}
