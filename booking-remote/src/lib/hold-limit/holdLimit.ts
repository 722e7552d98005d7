import { ErrorCode, type HoldChallenge } from 'shared-api';
import { failureOf } from '../apiError';

/** A client solving more than this many challenges in one go is far over its limit: it stops and says so. */
const MAX_CHALLENGES = 3;

/** The challenge of a 429 answer (HOLD_LIMIT, or the waitlist's join limit), or null (another error, or a limit no proof of work lifts). */
export function holdChallengeOf(error: unknown): HoldChallenge | null {
  const { code, status } = failureOf(error);
  if (code !== ErrorCode.HOLD_LIMIT && status !== 429) return null;
  const data = (error as { data?: { data?: { challenge?: HoldChallenge | null } | null } }).data?.data;
  return data?.challenge ?? null;
}

export const isHoldLimit = (error: unknown): boolean => failureOf(error).code === ErrorCode.HOLD_LIMIT;

/**
 * Runs `attempt`; when it is refused with a hold-limit challenge, solves it (the solver is loaded on demand, and
 * `onChecking` shows a short "checking" state meanwhile) and runs it again with the proof of work. Rethrows anything
 * else, a 429 without a challenge, and the last refusal when solving fails or keeps being asked for.
 */
export async function withHoldChallenge<T>(attempt: (proofOfWork?: string) => Promise<T>, onChecking: (checking: boolean) => void): Promise<T> {
  let proofOfWork: string | undefined;
  for (let round = 0; ; round++) {
    try {
      return await attempt(proofOfWork);
    } catch (error) {
      const challenge = holdChallengeOf(error);
      if (!challenge || round >= MAX_CHALLENGES) throw error;
      onChecking(true);
      try {
        const { solveHoldChallenge } = await import('./holdChallenge');
        proofOfWork = (await solveHoldChallenge(challenge)) ?? undefined;
      } finally {
        onChecking(false);
      }
      if (!proofOfWork) throw error;
    }
  }
}
