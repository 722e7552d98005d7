import { z } from 'zod';
import { HOLD_MINUTES, HOLD_TIME_CAP_MINUTES, HOLD_TIME_WINDOW_MINUTES } from './constants';

// Hold limits: past its free holds, a client network is answered 429 HOLD_LIMIT with an ALTCHA (v2) proof-of-work
// challenge; solving it earns one more hold (server/src/holds/hold-limits.ts explains the numbers). A slot's hold time
// per network, email and phone is capped (429 HOLD_TIME_USED; server/src/holds/hold-time.ts).

/** Hold limits (not in the spec; here, off the first load, with the dialog's lazy schemas): the dialog's words while its connection is checked, and when no more holds are given. */
export const HoldMessage = {
  limit: 'Too many slots are on hold from your connection. Please finish or cancel a booking in progress, or try again in a few minutes.',
  checking: 'Checking your connection…',
  /** HOLD_TIME_USED: this connection, email or phone has had its hold time on this slot. */
  timeUsed: `You have held this slot for as long as one visitor may (${HOLD_TIME_CAP_MINUTES} minutes within ${HOLD_TIME_WINDOW_MINUTES / 60} hours). Please choose another slot, or try this one again later.`,
  /** VISITOR_HAS_HOLD: this email address or phone number already holds another slot (for at most HOLD_MINUTES). */
  visitorHasHold: `You already have another slot on hold with this email address or phone number. Finish or cancel that booking first, or try again when its hold ends (within ${HOLD_MINUTES} minutes).`,
} as const;

/** An ALTCHA v2 challenge as the server signs it; the solver needs every parameter exactly as sent. */
export const holdChallengeSchema = z.object({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number().int(),
    keyLength: z.number().int(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  }),
  signature: z.string(),
});
export type HoldChallenge = z.infer<typeof holdChallengeSchema>;

/** The `data` of a 429 HOLD_LIMIT answer: a challenge to solve, or null when no more holds are given at all. */
export const holdLimitedSchema = z.object({ challenge: holdChallengeSchema.nullable() });
export type HoldLimited = z.infer<typeof holdLimitedSchema>;

/** A solved challenge, base64 of `{ challenge, solution }` JSON (the ALTCHA payload), sent back as `proofOfWork`. */
export const proofOfWorkSchema = z.string().min(1).max(4096);
