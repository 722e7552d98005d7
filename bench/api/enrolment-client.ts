// Enrolment day for `npm run bench:api`, run in its own process: N visitors at once, each reads the public list,
// picks a free slot at random and tries to hold and pay for it through the sandbox gateway (POST
// /api/payment/initiate, then the sandbox checkout's Pay button, whose signed callback books the slot); a visitor
// refused (409, or 429 HOLD_TIME_USED) reads the list again and tries another slot, up to 3 times. All visitors share
// one address, as parents behind a carrier NAT do: past the network's free holds the API answers 429 HOLD_LIMIT with a
// proof-of-work challenge, which a visitor solves with the booking dialog's own solver and sends again, as the browser
// does (at most 3 times); told that the connection holds all it may (429 HOLD_LIMIT without a challenge), a visitor
// waits what Retry-After says (give or take half) and tries again, as the dialog asks, for up to 10 minutes.
// Prints one JSON line of results.
import { percentile } from '../doc';
import { currentNoticeVersion } from 'shared-api/privacy';
import { brand, ErrorCode, schoolYears, type HoldChallenge } from 'shared-api/contract';
import { solveHoldChallenge } from '../../booking-remote/src/lib/hold-limit/holdChallenge';

const [apiUrl, visitorCount] = [process.argv[2], Number(process.argv[3])];
const maxAttempts = 3;
/** As the booking dialog (utils/holdLimit.ts): a client asked for more than this many proofs in a row gives up. */
const maxChallenges = 3;
/** How long a parent keeps trying again when told to wait. */
const patienceMs = 10 * 60_000;

type Outcome = { visitor: number; slotId?: number; paymentId?: string; status: string; attempts: number };
const statusCounts: Record<string, number> = {};
const refusals: Record<string, number> = {};
const initiateMs: number[] = [];
const initiateOkMs: number[] = [];
const initiateRefusedMs: number[] = [];
let serverErrors = 0;
const serverErrorsBy: Record<string, number> = {};
let networkErrors = 0;
let challengesSolved = 0;
let challengesFailed = 0;
const solveMs: number[] = [];
/** From a visitor's start to their payment session, for those who booked; and the waits they were told to make. */
const waitToHoldMs: number[] = [];
let waitsTold = 0;

async function call(url: string, init?: RequestInit): Promise<{ status: number; body: unknown; headers: Headers }> {
  try {
    const response = await fetch(url, { ...init, redirect: 'manual' });
    const text = await response.text();
    statusCounts[response.status] = (statusCounts[response.status] ?? 0) + 1;
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // HTML (checkout) or empty
    }
    if (response.status >= 500) {
      serverErrors += 1;
      const key = `${init?.method ?? 'GET'} ${new URL(url).pathname.replace(/\/[^/]*\d[^/]*$/, '/{id}')} ${response.status} ${(body as { error?: string }).error ?? ''}`;
      serverErrorsBy[key] = (serverErrorsBy[key] ?? 0) + 1;
    }
    return { status: response.status, body, headers: response.headers };
  } catch (error) {
    networkErrors += 1;
    throw error;
  }
}

type Slot = { id: number; date: string; startTime: string };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function visitor(n: number): Promise<Outcome> {
  const school = brand.schools[n % brand.schools.length];
  const visitStart = performance.now();
  let attempt = 0;
  while (attempt < maxAttempts) {
    attempt += 1;
    const list = await call(`${apiUrl}/public/list?limit=100&page=1&format=legacy`);
    const slots = ((list.body as { data?: { slots?: Slot[] } }).data?.slots ?? []) as Slot[];
    if (slots.length === 0) return { visitor: n, status: 'sold out', attempts: attempt };
    const slot = slots[Math.floor(Math.random() * slots.length)];
    const started = performance.now();
    const body = {
      slotId: slot.id,
      visitorName: `Parent ${n}`,
      visitorEmail: `parent${n}@example.com`,
      visitorContactNo: `01${String(20000000 + n)}`,
      selectedSchool: school.name,
      childName: `Child ${n}`,
      childYear: schoolYears(school.name)[0].name,
      fee: school.feeSen,
      slotDate: slot.date,
      slotStartTime: slot.startTime,
      consent: { noticeVersion: currentNoticeVersion(), language: "en" as const },
      preferredPaymentMethod: 'fpx',
    };
    const initiateWith = (proofOfWork?: string) =>
      call(`${apiUrl}/api/payment/initiate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, proofOfWork }) });
    let initiated = await initiateWith();
    for (let round = 0; round < maxChallenges && initiated.status === 429; round++) {
      const limited = initiated.body as { error?: string; data?: { challenge?: HoldChallenge | null } };
      const challenge = limited.error === ErrorCode.HOLD_LIMIT ? limited.data?.challenge : null;
      if (!challenge) break;
      const solving = performance.now();
      const proof = await solveHoldChallenge(challenge);
      solveMs.push(performance.now() - solving);
      if (!proof) {
        challengesFailed += 1;
        break;
      }
      challengesSolved += 1;
      initiated = await initiateWith(proof);
    }
    const took = performance.now() - started;
    initiateMs.push(took);
    (initiated.status === 200 ? initiateOkMs : initiateRefusedMs).push(took);
    const code = (initiated.body as { error?: string }).error ?? `HTTP ${initiated.status}`;
    if (initiated.status === 429 && code === ErrorCode.HOLD_LIMIT && performance.now() - visitStart < patienceMs) {
      // "Try again in a few minutes": the connection holds all it may for now. Not a refusal of this slot.
      waitsTold += 1;
      const retryAfterMs = (Number(initiated.headers.get('retry-after')) || 5) * 1000;
      await sleep(retryAfterMs * (0.5 + Math.random()));
      attempt -= 1;
      continue;
    }
    if (initiated.status === 409 || initiated.status === 429) {
      refusals[code] = (refusals[code] ?? 0) + 1;
      continue;
    }
    const session = (initiated.body as { data?: { paymentSession?: { paymentId: string; checkoutUrl: string } } }).data?.paymentSession;
    if (initiated.status !== 200 || !session) return { visitor: n, slotId: slot.id, status: `initiate ${initiated.status}`, attempts: attempt };
    const heldAfter = performance.now() - visitStart;
    // The sandbox checkout page's Pay button (a form post); the gateway then sends the signed callback.
    const paid = await call(session.checkoutUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=pay&method=fpx',
    });
    if (paid.status !== 303) return { visitor: n, slotId: slot.id, paymentId: session.paymentId, status: `pay ${paid.status}`, attempts: attempt };
    // What the payment-pending page does: poll the status until the callback has settled the payment.
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const status = await call(`${apiUrl}/api/payment/status/${encodeURIComponent(session.paymentId)}`);
      const payment = (status.body as { data?: { payment?: { status?: string } } }).data?.payment;
      if (payment?.status && !['pending', 'processing'].includes(payment.status)) {
        if (payment.status === 'completed') waitToHoldMs.push(heldAfter);
        return { visitor: n, slotId: slot.id, paymentId: session.paymentId, status: payment.status, attempts: attempt };
      }
      await sleep(500);
    }
    return { visitor: n, slotId: slot.id, paymentId: session.paymentId, status: 'still pending after 120 s', attempts: attempt };
  }
  return { visitor: n, status: 'refused every time', attempts: maxAttempts };
}

async function main() {
  const started = performance.now();
  const settled = await Promise.allSettled(Array.from({ length: visitorCount }, (_, i) => visitor(i + 1)));
  const totalMs = performance.now() - started;
  const outcomes = settled.map((s, i): Outcome => (s.status === 'fulfilled' ? s.value : { visitor: i + 1, status: `error: ${String(s.reason)}`, attempts: 0 }));
  const byStatus: Record<string, number> = {};
  for (const o of outcomes) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
  const completed = outcomes.filter((o) => o.status === 'completed');
  console.log(
    JSON.stringify({
      visitors: visitorCount,
      totalMs: Math.round(totalMs),
      outcomes: byStatus,
      completedSlotIds: completed.map((o) => o.slotId),
      refusals,
      initiate: { count: initiateMs.length, p50: Math.round(percentile(initiateMs, 50)), p99: Math.round(percentile(initiateMs, 99)) },
      initiateOk: { count: initiateOkMs.length, p50: Math.round(percentile(initiateOkMs, 50)), p99: Math.round(percentile(initiateOkMs, 99)) },
      initiateRefused: { count: initiateRefusedMs.length, p50: Math.round(percentile(initiateRefusedMs, 50)), p99: Math.round(percentile(initiateRefusedMs, 99)) },
      statusCounts,
      serverErrors,
      serverErrorsBy,
      networkErrors,
      waitToHold: { p50: Math.round(percentile(waitToHoldMs, 50)), p99: Math.round(percentile(waitToHoldMs, 99)), max: Math.round(Math.max(0, ...waitToHoldMs)) },
      waitsTold,
      challenges: {
        solved: challengesSolved,
        failed: challengesFailed,
        solveP50: Math.round(percentile(solveMs, 50)),
        solveP99: Math.round(percentile(solveMs, 99)),
      },
    }),
  );
}

void main();
