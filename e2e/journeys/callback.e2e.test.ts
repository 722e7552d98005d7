// Journey 5: the gateway's callback is held back. The success page still confirms (its status check makes the API
// ask the gateway: reconciliation), the late callback changes nothing, and the pending page counts down and polls.
// The success page's "(n/10)" retries while the API cannot answer are shown in e2e/faults (API killed mid-payment).
import type { LaunchedBrowser } from '../support/browser';
import { addSlot, eventually, nextWeekdays, phone, staffSlots, startJourney } from '../support/journey';
import { mailTo, outboxSent, type Inbox } from '../support/mail';
import { bookToGateway, onGateway, parent } from '../support/parent';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let inbox: Inbox;
let browser: LaunchedBrowser;
let token: string;
const [day] = nextWeekdays(1);
// Longer than the success page needs to confirm by asking: its polls reach the gateway at most once per payment every
// 5 s (the API's status throttle), and the booking dialog may have asked just before the parent left for the gateway.
const CALLBACK_DELAY_MS = 15_000;

// Reconciliation only at start-up: what confirms the payment here is the page's own status check.
productSuite({
  inbox: true,
  staff: true,
  apiEnv: { SANDBOX_CALLBACK_DELAY_MS: String(CALLBACK_DELAY_MS), RECONCILE_INTERVAL_MS: '0' },
}, (s) => ({ stack, browser, inbox, token } = s));

const callbackLines = () => stack.logs.filter((line) => line.includes('"url":"/api/payment/callback"'));
const callbacksReceived = () => callbackLines().length;
/** Callbacks the API has finished with: the "request completed" line of a callback's request id. */
const callbacksAnswered = () => {
  const ids = new Set(callbackLines().map((line) => (JSON.parse(line) as { reqId?: string }).reqId));
  return stack.logs.filter((line) => line.includes('"msg":"request completed"') && ids.has((JSON.parse(line) as { reqId?: string }).reqId)).length;
};

test('journey 5a (late callback): success before the callback arrives (the API asks the gateway); the late callback changes nothing', async () => {
  const journey = startJourney('payment-late-callback');
  const slotId = await addSlot(stack.urls.api, token, day, '09:30');
  const email = 'late.callback@example.com';
  const page = await browser.context.newPage();
  await page.goto(`${stack.urls.shell}/`);
  await bookToGateway(page, day, '09:30', { ...parent, email });
  const before = callbacksReceived();
  await onGateway(page, 'pay');
  await page.waitForURL(`${stack.urls.shell}/payment/success**`);
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 30_000 });
  await page.getByText('Amount Paid: RM 75', { exact: true }).waitFor();
  // Confirmed while the gateway's callback was still held back.
  expect(callbacksReceived()).toBe(before);
  await journey.finish(page);

  await eventually(async () => callbacksAnswered() > before, 'the late callback, answered', CALLBACK_DELAY_MS + 15_000);
  await inbox.waitFor(mailTo(email), `to ${email}`);
  // Everything the booking and the late callback put in the outbox is sent: still exactly one mail, one booking.
  await outboxSent(stack);
  expect(inbox.to(email)).toHaveLength(1);
  const slot = (await staffSlots(stack.urls.api, token)).find((s) => s.id === slotId);
  expect(slot).toMatchObject({ isBooked: true, visitorEmail: email });
});

test('journey 5b (pending page): the 5:00 countdown ticks and polling follows the payment to success', async () => {
  const journey = startJourney('payment-pending');
  await addSlot(stack.urls.api, token, day, '10:30');
  const page = await browser.context.newPage();
  await page.goto(`${stack.urls.shell}/`);
  // The payment the booking dialog started (its id is what /payment/pending?payment_id= takes).
  // Passed through unchanged; read here because the page leaves for the gateway at once.
  let session: { paymentId?: string; id: string } | undefined;
  await page.route('**/api/payment/initiate', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (route.request().method() === 'POST') session = (JSON.parse(body) as { data: { paymentSession: typeof session } }).data.paymentSession;
    await route.fulfill({ response, body });
  });
  await bookToGateway(page, day, '10:30');
  const id = session!.paymentId ?? session!.id;
  expect(id).toBeTruthy();
  const pending = await browser.context.newPage();
  await pending.setViewportSize(phone);
  await pending.goto(`${stack.urls.shell}/payment/pending?payment_id=${encodeURIComponent(id)}`);
  await pending.getByRole('heading', { name: 'Processing Payment' }).waitFor();
  const remaining = pending.getByText(/Time remaining:/);
  const first = (await remaining.innerText()).match(/\d:\d\d/)?.[0];
  expect(first).toMatch(/^(5:00|4:5\d)$/);
  await pending.waitForFunction((shown) => !/Time remaining:\s*(\d:\d\d)/.exec(document.body.innerText)?.[1]?.startsWith(shown!), first);
  // Still open after a poll or two (nothing paid yet).
  await pending.waitForResponse((r) => r.url().includes(`/api/payment/status/${id}`) && r.ok());
  expect(new URL(pending.url()).pathname).toBe('/payment/pending');
  await journey.shot(pending, 'payment-pending-countdown');

  await page.bringToFront();
  await onGateway(page, 'pay');
  await pending.waitForURL(`${stack.urls.shell}/payment/success?payment_id=**`, { timeout: 20_000 });
  await pending.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 30_000 });
  await journey.finish(pending);
});
