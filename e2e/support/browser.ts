// Debian's Chromium, headless, in a fresh profile per launch (no state leaks between tests).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type LaunchedBrowser = { context: BrowserContext; close: () => Promise<void> };

export type LaunchOptions = { viewport?: { width: number; height: number }; /** More Chromium arguments (bench:web's proxy). */ args?: string[] };

/** A persistent context on a new temporary profile, removed again on close. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath} (install it with: apt-get install -y chromium)`);
  }
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs, ...(options.args ?? [])],
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      fs.rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
