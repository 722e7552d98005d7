import { clientNetwork } from '../base/client-address';
import { sha256 } from '../base/crypto';
import type { DbOrTx } from '../base/db/connection';
import { AppError, tooManyRequests } from '../base/errors';
import { hitCounter } from './rate-counter';

/**
 * A brake on guessing secret tokens in URLs (manage links, calendar feeds, password resets, waitlist links), per client
 * network. Only unknown tokens count and only they are refused: a valid token always works, so parents behind one
 * school Wi-Fi or carrier address are never locked out by someone else's guessing. Tokens are 128 to 256 random bits,
 * so the brake does not guard the token (no guesser finds one); it makes a scanner answer 429 with Retry-After instead
 * of 404s.
 */
export type GuessLimit = {
  /** The counter's name in rate_counters (the key adds the SHA-256 of the client network; no address is stored). */
  name: string;
  /** Unknown tokens one client network may try in a window; past that they get 429. */
  limit: number;
  windowSeconds: number;
  /** The 429's words. */
  tooMany: string;
};

/** Unknown tokens one client network may try in 10 minutes, the same for every token in a URL. */
export const GUESSES_PER_WINDOW = { limit: 30, windowSeconds: 600 } as const;

/** A token route's guess limit: its own counter and 429 words, at the product's one rate (GUESSES_PER_WINDOW). */
export const guessLimit = (name: string, tooMany: string): GuessLimit => ({ name, ...GUESSES_PER_WINDOW, tooMany });

/**
 * Counts an unknown token from `ip` (one upsert, shared by every API process) and throws: `notFound()` up to the limit,
 * then 429 with the seconds until the window ends. Call it only after the lookup found nothing.
 */
export async function refuseUnknownToken(db: DbOrTx, limit: GuessLimit, ip: string, notFound: () => AppError): Promise<never> {
  const hit = await hitCounter(db, `${limit.name}:${sha256(clientNetwork(ip))}`, limit.windowSeconds);
  throw hit.hits > limit.limit ? tooManyRequests(limit.tooMany, hit.retryAfterSeconds) : notFound();
}
