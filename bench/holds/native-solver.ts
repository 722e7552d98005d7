import { createHash } from 'node:crypto';
import type { HoldChallenge } from 'shared-api/contract';

/**
 * Solves a hold-limit challenge (ALTCHA v2, SHA-256, cost 1) with Node's native hashing, as fast as one core can: the
 * counter whose SHA-256(salt ‖ nonce ‖ counter) starts with the key prefix. Returns the `proofOfWork` to send and the
 * digests it took (an attacker's solver; the browser's is booking-remote's lib/hold-limit/holdChallenge.ts).
 */
export function solveNatively(challenge: HoldChallenge): { proofOfWork: string; digests: number } {
  const { salt, nonce, keyPrefix, keyLength = 32 } = challenge.parameters;
  const input = Buffer.concat([Buffer.from(salt, 'hex'), Buffer.from(nonce, 'hex'), Buffer.alloc(4)]);
  const counterAt = input.length - 4;
  const prefix = Buffer.from(keyPrefix, 'hex');
  for (let counter = 0; counter <= 0xffffffff; counter++) {
    input.writeUInt32BE(counter, counterAt);
    const key = createHash('sha256').update(input).digest();
    if (key.subarray(0, prefix.length).equals(prefix)) {
      const solution = { counter, derivedKey: key.subarray(0, keyLength).toString('hex') };
      return { proofOfWork: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'), digests: counter + 1 };
    }
  }
  throw new Error('no counter solves this challenge');
}
