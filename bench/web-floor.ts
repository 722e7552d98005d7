// The floor of "first slot within 1.5 × the HTML's arrival" on this profile: a page of one button and nothing else
// (no style, no script), served from memory and loaded as bench:web loads `/`. What it takes after its HTML is the
// slowed renderer's own cost, which no page can go below.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { phoneViewport } from '../e2e/support/page';
import { median } from './doc';
import type { ConnectionSetup } from './web-connections';

export type Floor = { htmlMs: number; paintMs: number; loads: number; firstVisit: boolean };
export type SlowProfile = { latencyMs: number; downloadKbps: number; uploadKbps: number; cpuSlowdown: number };

/** Slows `tab` as bench:web's phone: its network through the DevTools protocol, and its CPU. */
export async function slowDown(context: BrowserContext, tab: Page, profile: SlowProfile): Promise<void> {
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: (profile.downloadKbps * 1000) / 8,
    uploadThroughput: (profile.uploadKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
}

const page = '<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width,initial-scale=1"><title>Floor</title></head><body><main><button>10:30 AM</button></main></body></html>';

export async function measureFloor(profile: SlowProfile, loads: number, setup?: ConnectionSetup): Promise<Floor> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const html: number[] = [];
  const paint: number[] = [];
  try {
    for (let i = 0; i < loads; i++) {
      setup?.reset();
      const browser = await launchBrowser({ viewport: phoneViewport, args: setup?.args });
      try {
        const tab = await browser.context.newPage();
        await slowDown(browser.context, tab, profile);
        const response = await tab.goto(url, { waitUntil: 'load' });
        await tab.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
        html.push(response!.request().timing().responseEnd);
        paint.push(await tab.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime));
      } finally {
        await browser.close();
      }
    }
  } finally {
    server.close();
  }
  return { htmlMs: Math.round(median(html)), paintMs: Math.round(median(paint)), loads, firstVisit: setup !== undefined };
}

export const floorText = (floor: Floor): string =>
  `The floor on this profile${floor.firstVisit ? ', first visit' : ''} (\`bench/web-floor.ts\`: a page of one button, no style or script, served from memory, median of ${floor.loads}): ` +
  `its HTML arrives at ${floor.htmlMs} ms and its first paint is at ${floor.paintMs} ms, ${Math.round((floor.paintMs / floor.htmlMs) * 100) / 100} × the HTML's arrival.`;
