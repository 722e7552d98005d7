import { createHash, randomBytes } from 'node:crypto';

/** Hex SHA-256: how tokens, addresses and emails are stored and keyed (never the value itself). */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
/** 32 random bytes, base64url: 256 bits, only its SHA-256 is stored. */
export const newToken = (): string => randomBytes(32).toString('base64url');
