import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=<hex>`: HMAC-SHA256 of the raw body with the app secret, as the platform's X-Hub-Signature-256 carries it. */
export const signWebhookBody = (appSecret: string, rawBody: string | Buffer): string =>
  `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;

/** True when the header is the body's signature (compared in constant time; a missing or malformed one is false). */
export function signatureMatches(appSecret: string, rawBody: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const expected = Buffer.from(signWebhookBody(appSecret, rawBody).slice(7), 'hex');
  const given = Buffer.from(header.slice(7).toLowerCase(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Two strings equal, compared in constant time over their digests (the handshake's verify token). */
export function sameSecret(a: string, b: string): boolean {
  const da = createHmac('sha256', 'verify').update(a).digest();
  const db = createHmac('sha256', 'verify').update(b).digest();
  return timingSafeEqual(da, db);
}
