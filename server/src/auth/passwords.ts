import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export type ScryptCost = { N: number; r: number; p: number };

/** OWASP's scrypt floor (N 2^17, r 8, p 1): about 0.3 s and 128 MiB per hash, on libuv's pool, not the event loop. */
export const PASSWORD_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 64;
/** A stored hash needing more memory than this is refused rather than allocated (8× today's cost). */
const MAX_MEMORY = 1024 * 1024 * 1024;

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** scrypt needs 128·N·r bytes (plus 128·r·(p + 2)); Node refuses above maxmem, 32 MiB by default. */
const options = ({ N, r, p }: ScryptCost): ScryptOptions => ({ N, r, p, maxmem: 128 * N * r + 1024 * 1024 });

/** `scrypt$N$r$p$salt$hash` (base64), with a fresh 16-byte salt per password. */
export async function hashPassword(password: string, cost: ScryptCost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, options(cost));
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

function parseHash(stored: string): { cost: ScryptCost; salt: Buffer; key: Buffer } | null {
  const [kind, n, r, p, saltB64, keyB64, ...rest] = stored.split('$');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const sane = Object.values(cost).every((v) => Number.isInteger(v) && v >= 1) && 128 * cost.N * cost.r <= MAX_MEMORY;
  if (kind !== 'scrypt' || !sane || !saltB64 || !keyB64 || rest.length) return null;
  return { cost, salt: Buffer.from(saltB64, 'base64'), key: Buffer.from(keyB64, 'base64') };
}

/** True when `password` matches `stored`, whatever scrypt parameters it was hashed with. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.key.length === 0) return false;
  const actual = await scrypt(password, parsed.salt, parsed.key.length, options(parsed.cost));
  return timingSafeEqual(actual, parsed.key);
}

/** True when `stored` was not hashed with `cost` (older, weaker parameters): the next login replaces it. */
export function needsRehash(stored: string, cost: ScryptCost = PASSWORD_COST): boolean {
  const parsed = parseHash(stored);
  return !parsed || parsed.cost.N !== cost.N || parsed.cost.r !== cost.r || parsed.cost.p !== cost.p;
}
