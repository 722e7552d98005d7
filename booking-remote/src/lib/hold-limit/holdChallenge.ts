import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import type { HoldChallenge } from 'shared-api';

// The hold-limit solver, loaded on demand (never on the timetable's first load). WebCrypto only, so the browser and
// Node (bench/api/enrolment-client.ts) solve the same way. Each attempt awaits crypto.subtle.digest and the solver
// yields every 200 ms, so the dialog stays responsive while it works (no worker: a remote's script URL is cross-origin).

/** A parent is told to try later rather than kept waiting past this. */
export const SOLVE_TIMEOUT_MS = 30_000;

/** Solves a challenge from a 429 HOLD_LIMIT answer: the `proofOfWork` to send again, or null (timed out or aborted). */
export async function solveHoldChallenge(challenge: HoldChallenge, controller?: AbortController): Promise<string | null> {
  const solution = await solveChallenge({ challenge: challenge as Challenge, deriveKey, controller, timeout: SOLVE_TIMEOUT_MS });
  return solution ? btoa(JSON.stringify({ challenge, solution })) : null;
}
