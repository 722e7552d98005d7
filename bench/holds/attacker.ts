// The attacker of `npm run bench:holds`, in its own process (so its CPU is its own): one script with many addresses in
// one /24 (127.0.0.2-127.0.0.17) holding as many slots as it can through both API processes, through every door: holds
// (reserve), payments (initiate with invented details, renewing each hold shortly before it ends: renewing earlier
// costs the same work more often) and the waitlist (joins with invented parents, and every offer that reaches their
// invented mailboxes accepted and renewed like a hold), solving every challenge with a native solver until its solver
// CPU budget is spent, for as long as the server lets it.
// The bench's clock runs faster than the wall's (the database's hold times are moved into the past): the parent sends
// each move (`{ shiftMs }`), so the attacker knows what its holds have left. Sends one result message at the end.
import { currentNoticeVersion } from 'shared-api/privacy';
import http from 'node:http';
import { brand, ErrorCode, schoolYears, type HoldChallenge } from 'shared-api/contract';
import { solveNatively } from './native-solver';

export type AttackerOptions = { apis: string[]; addresses: string[]; cpuBudgetMs: number; speed: number };
export type AttackerResult = {
  holdsTaken: number;
  joins: number;
  offersTaken: number;
  renewals: number;
  challengesSolved: number;
  digests: number;
  solverCpuMs: number;
  processCpuMs: number;
  budgetSpent: boolean;
  answers: Record<string, number>;
};

const options = JSON.parse(process.argv[2]) as AttackerOptions;
const agents = new Map(options.addresses.map((address) => [address, new http.Agent({ keepAlive: true, localAddress: address, maxSockets: 4 })]));
/** Renew a hold when this little of it is left (on the bench's clock). */
const RENEW_BELOW_MS = 2 * 60_000;
const school = brand.schools[0];

let shiftMs = 0;
let stopping = false;
/** Offer and confirmation links mailed to its invented parents (the bench reads the outbox: it owns their mail domain). */
const offerLinks: string[] = [];
const confirmLinks: string[] = [];
process.on('message', (message: { shiftMs?: number; stop?: boolean; offers?: string[]; confirms?: string[] }) => {
  if (message.shiftMs !== undefined) shiftMs = message.shiftMs;
  if (message.stop) stopping = true;
  if (message.offers) offerLinks.push(...message.offers);
  if (message.confirms) confirmLinks.push(...message.confirms);
});

const result: AttackerResult = { holdsTaken: 0, joins: 0, offersTaken: 0, renewals: 0, challengesSolved: 0, digests: 0, solverCpuMs: 0, processCpuMs: 0, budgetSpent: false, answers: {} };

type Body = { success?: boolean; data?: { token?: string; expiresAt?: string; challenge?: HoldChallenge | null; paymentSession?: { expiresAt: string } } | null; error?: string };
type Answer = { status: number; retryAfterMs: number; body: Body };

let turn = 0;
/** The next address and API process, in turn. */
const next = () => {
  turn += 1;
  return { address: options.addresses[turn % options.addresses.length], api: options.apis[turn % options.apis.length] };
};

function call(method: 'GET' | 'POST', url: string, address: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      url,
      { method, agent: agents.get(address), headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let parsed: Body = {};
          try {
            parsed = JSON.parse(text) as Body;
          } catch {
            // not JSON
          }
          const key = `${res.statusCode}${parsed.error ? ` ${parsed.error}` : ''}`;
          result.answers[key] = (result.answers[key] ?? 0) + 1;
          // Retry-After is in the server's seconds; the bench's clock runs `speed` times faster.
          resolve({ status: res.statusCode ?? 0, retryAfterMs: (Number(res.headers['retry-after']) || 1) * (1000 / options.speed), body: parsed });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** Solves a challenge within the CPU budget; null once it is spent. */
function solve(challenge: HoldChallenge): string | null {
  if (result.solverCpuMs >= options.cpuBudgetMs) {
    result.budgetSpent = true;
    return null;
  }
  const before = process.cpuUsage();
  const { proofOfWork, digests } = solveNatively(challenge);
  const used = process.cpuUsage(before);
  result.solverCpuMs += (used.user + used.system) / 1000;
  result.digests += digests;
  result.challengesSolved += 1;
  return proofOfWork;
}

/** Sends `send(proof)` again with a solved proof while the answer is a challenge (at most 4 times). */
async function withWork(send: (proofOfWork?: string) => Promise<Answer>): Promise<Answer> {
  let answer = await send();
  for (let round = 0; round < 4 && answer.status === 429 && answer.body.error === ErrorCode.HOLD_LIMIT && answer.body.data?.challenge; round++) {
    const proof = solve(answer.body.data.challenge);
    if (!proof) break;
    answer = await send(proof);
  }
  return answer;
}

type Slot = { id: number; date: string; startTime: string };
type Hold = { slot: Slot; token: string; expiresAt: number; shiftAtGrant: number; renewals: number };
const holds = new Map<number, Hold>();
const blockedUntil = new Map<number, number>();
let ceilingUntil = 0;
let invented = 0;

/** A new invented person: a name, an email on a domain the attacker owns, a phone. */
function inventPerson(): { name: string; email: string; phone: string } {
  invented += 1;
  return { name: `Invented Person ${invented}`, email: `invented${invented}@example.com`, phone: `01${String(30_000_000 + invented)}` };
}
const child = { childName: 'Invented Child', childYear: schoolYears(school.name)[0]?.name };

/** What a hold has left on the bench's clock. */
const left = (hold: Hold) => hold.expiresAt - (shiftMs - hold.shiftAtGrant) - Date.now();

async function take(slot: Slot): Promise<void> {
  const { address, api } = next();
  const answer = await withWork((proofOfWork) => call('POST', `${api}/slot/${slot.id}/reserve`, address, { proofOfWork }));
  if (answer.status === 200 && answer.body.data?.token) {
    result.holdsTaken += 1;
    holds.set(slot.id, { slot, token: answer.body.data.token, expiresAt: Date.parse(answer.body.data.expiresAt!), shiftAtGrant: shiftMs, renewals: 0 });
  } else if (answer.status === 429 && answer.body.error === ErrorCode.HOLD_LIMIT && !answer.body.data?.challenge) {
    ceilingUntil = Date.now() + Math.min(answer.retryAfterMs, 1000);
  } else if (answer.status === 429) {
    blockedUntil.set(slot.id, Date.now() + answer.retryAfterMs);
  }
}

async function renew(hold: Hold): Promise<void> {
  const { address, api } = next();
  const person = inventPerson();
  const body = {
    slotId: hold.slot.id,
    visitorName: person.name,
    visitorEmail: person.email,
    visitorContactNo: person.phone,
    selectedSchool: school.name,
    ...child,
    consent: { noticeVersion: currentNoticeVersion(), language: 'en' as const },
    holdToken: hold.token,
  };
  const answer = await withWork((proofOfWork) => call('POST', `${api}/api/payment/initiate`, address, { ...body, proofOfWork }));
  const session = answer.body.data?.paymentSession;
  if (answer.status === 200 && session) {
    result.renewals += 1;
    Object.assign(hold, { expiresAt: Date.parse(session.expiresAt), shiftAtGrant: shiftMs, renewals: hold.renewals + 1 });
  } else if (answer.status === 429 && answer.body.error !== ErrorCode.HOLD_LIMIT) {
    // The cap or the payment bound: this hold runs out; the slot is tried again once the server says so.
    blockedUntil.set(hold.slot.id, Date.now() + answer.retryAfterMs);
  }
}

/** Joins the waitlist as a new invented parent (the days from today, three weeks, any time). */
async function join(): Promise<void> {
  const { address, api } = next();
  const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
  const toDate = new Date(Date.now() + 8 * 3_600_000 + 21 * 86_400_000).toISOString().slice(0, 10);
  const body = {
    ...inventPerson(),
    school: school.name,
    ...child,
    fromDate: today,
    toDate,
    partOfDay: 'any',
    locale: 'en',
    privacyConsent: { noticeVersion: currentNoticeVersion(), language: 'en' },
  };
  const answer = await withWork((proofOfWork) => call('POST', `${api}/api/waitlist`, address, { ...body, proofOfWork }));
  if (answer.status === 202) result.joins += 1;
}

/** Accepts an offer made to one of its invented parents: its hold is then renewed like any other. */
async function takeOffer(link: string): Promise<void> {
  const { address, api } = next();
  const answer = await call('POST', `${api}/api/waitlist/offer/${link}/accept`, address, {});
  const data = answer.body.data as { slotId?: number; token?: string; expiresAt?: string } | null | undefined;
  if (answer.status !== 200 || !data?.slotId || !data.token) return;
  result.offersTaken += 1;
  holds.set(data.slotId, { slot: { id: data.slotId, date: '', startTime: '' }, token: data.token, expiresAt: Date.parse(data.expiresAt!), shiftAtGrant: shiftMs, renewals: 0 });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Joins at most this often (on the wall's clock): a few an hour of the bench's. */
const JOIN_EVERY_MS = 2_000;
let nextJoinAt = 0;

async function main() {
  while (!stopping) {
    const { address, api } = next();
    const list = await call('GET', `${api}/public/list?limit=100&page=1&format=legacy`, address);
    const free = ((list.body.data as { slots?: Slot[] } | null)?.slots ?? []).sort(() => Math.random() - 0.5);
    for (const slot of free) {
      if (stopping || Date.now() < ceilingUntil) break;
      if ((blockedUntil.get(slot.id) ?? 0) > Date.now() || holds.has(slot.id)) continue;
      await take(slot);
    }
    if (Date.now() >= nextJoinAt) {
      nextJoinAt = Date.now() + JOIN_EVERY_MS;
      await join();
    }
    // Its invented parents' joins are requests until confirmed from their mail (issue 35): it confirms every one.
    for (const link of confirmLinks.splice(0)) await call('POST', `${api}/api/waitlist/entry/${link}/confirm`, address, {});
    for (const link of offerLinks.splice(0)) await takeOffer(link);
    for (const hold of [...holds.values()]) {
      if (left(hold) <= 0) holds.delete(hold.slot.id);
      else if (left(hold) < RENEW_BELOW_MS && (blockedUntil.get(hold.slot.id) ?? 0) <= Date.now()) await renew(hold);
    }
    await sleep(50);
  }
  const cpu = process.cpuUsage();
  result.processCpuMs = (cpu.user + cpu.system) / 1000;
  process.send!(result, () => process.exit(0));
}

void main();
