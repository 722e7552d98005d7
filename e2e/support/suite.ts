// One product stack, one browser (and optionally a real SMTP inbox and a staff token) per test file: started before
// its tests, stopped after them, with the pages a test opened closed after each test.
import { launchBrowser, type LaunchedBrowser } from './browser';
import { demoLoginFrom, desktop, staffToken } from './journey';
import { startInbox, type Inbox } from './mail';
import { startStack, type Stack } from './product';

export type Suite = {
  stack: Stack;
  browser: LaunchedBrowser;
  /** With `inbox: true`: the SMTP server the API sends to (SMTP_URL). */
  inbox: Inbox;
  /** With `staff: true`: a staff bearer token of the demo login, and that login's email (the admin's address). */
  token: string;
  adminEmail: string;
};

export type SuiteOptions = {
  apiEnv?: Record<string, string>;
  inbox?: boolean;
  staff?: boolean;
  viewport?: { width: number; height: number };
};

/** Registers the file's beforeAll / afterAll / afterEach; `ready` receives the started parts (assign them to the file's variables). */
export function productSuite(options: SuiteOptions, ready: (suite: Suite) => void): void {
  let suite: Partial<Suite> = {};
  beforeAll(async () => {
    const inbox = options.inbox ? await startInbox() : undefined;
    suite.inbox = inbox;
    const stack = await startStack({ apiEnv: { SEED_DEMO: '0', ...options.apiEnv, ...(inbox ? { SMTP_URL: inbox.url } : {}) } });
    suite.stack = stack;
    suite.browser = await launchBrowser({ viewport: options.viewport ?? desktop });
    if (options.staff) {
      const login = demoLoginFrom(stack.logs);
      suite.adminEmail = login.email;
      suite.token = await staffToken(stack.urls.api, login);
    }
    ready(suite as Suite);
  }, 600_000);

  afterAll(async () => {
    await suite.browser?.close();
    await suite.stack?.stop();
    await suite.inbox?.stop();
    suite = {};
  });

  // Cleanup only: a page that does not close within 15 s (seen once in CI on a loaded machine) is left to the browser's
  // own close in afterAll instead of failing the next test's hook.
  afterEach(async () => {
    for (const page of suite.browser?.context.pages().slice(1) ?? []) {
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        page.close().then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 15_000))),
      ]);
      // A timer left running would keep Jest waiting after the last test file ("did not exit one second after").
      clearTimeout(timer);
      if (!closed) process.stdout.write(`e2e cleanup: a page (${page.url()}) did not close within 15 s; the browser closes it\n`);
    }
  });
}
