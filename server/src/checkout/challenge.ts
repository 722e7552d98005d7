import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { HoldChallenge } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { hitCounter } from '../limits';

// ALTCHA v2 in deterministic mode: the solver must try counters 0, 1, 2, ... until it meets the secret one, so the work
// is the counter itself, drawn from [work / 2, work] SHA-256 digests (hold-limits.ts says how much work a hold costs).
// A browser's WebCrypto does ~20-50 k a second (a phone to a laptop): 2,000 take a tenth of a second, 20,000 a second.

/** How long a challenge may be solved and used; short, so challenges cannot be stockpiled for later. */
export const CHALLENGE_TTL_SECONDS = 120;

export type ProofVerdict = 'ok' | 'missing' | 'invalid' | 'expired' | 'stale' | 'replayed';

/** What a challenge buys, signed into it: a proof made for one cannot be spent on the other (a hold's is cheaper). */
export type ChallengePurpose = 'hold' | 'waitlist-join';

/**
 * A challenge of at most `work` digests for one more hold of `client` (`level`: how many holds over its allowance, for
 * the reader), or for one more waitlist join (`purpose`; `level`: how many joins over the free ones).
 */
export async function issueHoldChallenge(
  secret: string,
  client: string,
  work: number,
  level: number,
  purpose: ChallengePurpose = 'hold',
): Promise<HoldChallenge> {
  const challenge = await createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: randomInt(work, Math.ceil(work / 2)),
    deriveKey,
    hmacSignatureSecret: secret,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000),
    data: { client: client.slice(0, 16), level, work, purpose },
  });
  return challenge as HoldChallenge;
}

const decode = (proof: string): { challenge: Challenge; solution: Solution } | null => {
  try {
    const payload = JSON.parse(Buffer.from(proof, 'base64').toString('utf8')) as { challenge?: Challenge; solution?: Solution };
    return payload?.challenge?.parameters && payload.solution ? { challenge: payload.challenge, solution: payload.solution } : null;
  } catch {
    return null;
  }
};

/**
 * Checks a solved challenge and uses it up (in `tx`: refused later holds roll the use back too). It must be signed by
 * us, unexpired, made for this client and this `purpose` (one signed without a purpose is a hold's), and never used
 * before on any replica (rate_counters keeps each nonce past its expiry). A hold's must have been made for at least half
 * the `work` a hold costs now: one solved early, when holds were cheap, cannot buy a hold later in a run of holds or
 * once slots are scarce, so stockpiling cheap challenges does not pay. With `work` null (a waitlist join's) it is
 * accepted at the work it was issued for: the join it buys counts toward its network's ceiling (waitlist payJoin).
 */
export async function redeemProof(
  tx: DbOrTx,
  secret: string,
  proof: string,
  client: string,
  work: number | null,
  purpose: ChallengePurpose = 'hold',
): Promise<ProofVerdict> {
  const payload = decode(proof);
  if (!payload) return 'invalid';
  const result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, hmacSignatureSecret: secret }).catch(() => null);
  if (result?.expired) return 'expired';
  if (!result?.verified) return 'invalid';
  const data = payload.challenge.parameters.data ?? {};
  if (data.client !== client.slice(0, 16) || (data.purpose ?? 'hold') !== purpose) return 'invalid';
  if (work !== null && !(Number(data.work) * 2 >= work)) return 'stale';
  const { hits } = await hitCounter(tx, `hold-proof:${payload.challenge.parameters.nonce}`, CHALLENGE_TTL_SECONDS + 60);
  return hits === 1 ? 'ok' : 'replayed';
}
