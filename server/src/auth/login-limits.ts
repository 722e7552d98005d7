import { setTimeout as sleep } from 'node:timers/promises';
import type { DbOrTx } from '../base/db/connection';
import { clientNetwork } from '../base/client-address';
import { hitCounter, peekCounter, resetCounter } from '../limits';
import { sha256 } from '../base/crypto';

// Login limits live in rate_counters (PostgreSQL or PGlite), so every API replica counts the same attempts.
// Keys hold only SHA-256 digests: the table stores no email and no address.

/** Wrong passwords one address may try on one account in FAILURE_WINDOW_SECONDS before that pair alone is refused. */
export const FAILURES_PER_ACCOUNT_AND_ADDRESS = 10;
export const FAILURE_WINDOW_SECONDS = 15 * 60;
/** Past this many failures on an account from all addresses together, every answer for it is held back a while. */
export const ACCOUNT_DELAY_AFTER_FAILURES = FAILURES_PER_ACCOUNT_AND_ADDRESS;
/** The longest hold-back: whoever has the right password gets in within this, however many wrong ones came before. */
export const MAX_ACCOUNT_DELAY_MS = 10_000;


const addressKey = (ip: string) => `login:address:${sha256(clientNetwork(ip))}`;
const pairKey = (email: string, ip: string) => `login:pair:${sha256(`${email}\n${clientNetwork(ip)}`)}`;
const accountKey = (email: string) => `login:account:${sha256(email)}`;

/** 0 up to the threshold, then 1 s, 2 s, 4 s, 8 s, and 10 s from there on. */
export const accountDelayMs = (failures: number): number =>
  failures < ACCOUNT_DELAY_AFTER_FAILURES ? 0 : Math.min(MAX_ACCOUNT_DELAY_MS, 1000 * 2 ** (failures - ACCOUNT_DELAY_AFTER_FAILURES));

/** Counts a login attempt from `ip` (any account); the seconds to wait when it is over `perMinute`, else null. */
export async function countAddressAttempt(db: DbOrTx, ip: string, perMinute: number): Promise<number | null> {
  const { hits, retryAfterSeconds } = await hitCounter(db, addressKey(ip), 60);
  return hits > perMinute ? retryAfterSeconds : null;
}

/**
 * Admits a login attempt on `email` from `ip`, or returns the seconds this pair must wait (too many failures from
 * here). The attempt counts as a failure until `loginSucceeded` clears it, so concurrent guesses cannot slip past.
 * Once the account has many failures from anywhere, the attempt is held back (capped) before the password is checked,
 * unless it comes from a known device of the account (auth/known-device.ts) or its client hangs up meanwhile.
 */
export async function admitLoginAttempt(
  db: DbOrTx,
  email: string,
  ip: string,
  { knownDevice = false, signal }: { knownDevice?: boolean; signal?: AbortSignal } = {},
): Promise<number | null> {
  const { hits, retryAfterSeconds } = await hitCounter(db, pairKey(email, ip), FAILURE_WINDOW_SECONDS);
  if (hits > FAILURES_PER_ACCOUNT_AND_ADDRESS) return retryAfterSeconds;
  if (knownDevice) return null;
  const delay = accountDelayMs(await peekCounter(db, accountKey(email), FAILURE_WINDOW_SECONDS));
  if (delay > 0) await sleep(delay, undefined, { signal }).catch(() => {});
  return null;
}

/** A wrong password (or unknown email): one more failure on the account, from all addresses together. */
export async function loginFailed(db: DbOrTx, email: string): Promise<void> {
  await hitCounter(db, accountKey(email), FAILURE_WINDOW_SECONDS);
}

/** The right password: this address starts afresh on this account (the account's own count runs out by itself). */
export async function loginSucceeded(db: DbOrTx, email: string, ip: string): Promise<void> {
  await resetCounter(db, pairKey(email, ip));
}
