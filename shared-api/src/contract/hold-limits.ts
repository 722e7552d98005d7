import { z } from 'zod';

// Hold limits: past its free holds, a client is answered 429 HOLD_LIMIT with an ALTCHA (v2) proof-of-work challenge;
// solving it earns one more hold (server/src/limits/hold-limits.ts explains the numbers).

/** Hold limits (not in the spec; here, off the first load, with the dialog's lazy schemas): the dialog's words while its connection is checked, and when no more holds are given. */
export const HoldMessage = {
  limit: 'Too many slots are on hold from your connection. Please finish or cancel a booking in progress, or try again in a few minutes.',
  checking: 'Checking your connection…',
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
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string(),
});
export type HoldChallenge = z.infer<typeof holdChallengeSchema>;

/** The `data` of a 429 HOLD_LIMIT answer: a challenge to solve, or null when no more holds are given at all. */
export const holdLimitedSchema = z.object({ challenge: holdChallengeSchema.nullable() });
export type HoldLimited = z.infer<typeof holdLimitedSchema>;

/** A solved challenge, base64 of `{ challenge, solution }` JSON (the ALTCHA payload), sent back as `proofOfWork`. */
export const proofOfWorkSchema = z.string().min(1).max(4096);
