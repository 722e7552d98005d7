import { createHmac, timingSafeEqual } from 'node:crypto';
import { parse, serialize } from 'cookie';
import type { Db } from '../base/db/connection';
import { sharedSecret } from '../base/secrets';

/*
 * OWASP's device cookie: a browser that signed in to an account gets a signed, HttpOnly cookie naming that account.
 * Its later logins to that account go ahead of the queue (password-work.ts) and skip the account's hold-back, so a
 * flood of guesses on the account does not keep its owner out. It opens nothing by itself: the password is still
 * checked, and every per-address limit still applies. Signed with a key shared by every replica (app_secrets).
 */

export const KNOWN_DEVICE_DAYS = 90;
/** The cookie goes back only to the login route. */
export const KNOWN_DEVICE_PATH = '/auth/login';
/** One cookie per account, so colleagues sharing an office computer each keep theirs. */
export const knownDeviceCookie = (userId: number) => `known_device_${userId}`;

const mac = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

export class KnownDevices {
  private static readonly loaded = new WeakMap<Db, Promise<KnownDevices>>();

  /** The known-device cookies of one database (its key is read once per process). */
  static load(db: Db): Promise<KnownDevices> {
    let devices = KnownDevices.loaded.get(db);
    if (!devices) {
      devices = sharedSecret(db, 'known-device').then((key) => new KnownDevices(key));
      devices.catch(() => KnownDevices.loaded.delete(db));
      KnownDevices.loaded.set(db, devices);
    }
    return devices;
  }

  private constructor(private readonly key: string) {}

  /** The Set-Cookie header value that marks this browser as a known device of `userId` for KNOWN_DEVICE_DAYS. */
  setCookie(userId: number, secure: boolean, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + KNOWN_DEVICE_DAYS * 86_400;
    const payload = `${userId}.${expires}`;
    return serialize(knownDeviceCookie(userId), `${payload}.${mac(this.key, payload)}`, {
      httpOnly: true,
      secure,
      sameSite: 'strict',
      path: KNOWN_DEVICE_PATH,
      maxAge: KNOWN_DEVICE_DAYS * 86_400,
    });
  }

  /** True when the request's cookies hold a valid, unexpired known-device cookie of `userId`. */
  recognises(cookieHeader: string | undefined, userId: number, now = Date.now()): boolean {
    const value = cookieHeader ? parse(cookieHeader)[knownDeviceCookie(userId)] : undefined;
    const match = value ? /^(\d+)\.(\d+)\.([\w-]{43})$/.exec(value) : null;
    if (!match || Number(match[1]) !== userId || Number(match[2]) * 1000 <= now) return false;
    const expected = Buffer.from(mac(this.key, `${match[1]}.${match[2]}`));
    const given = Buffer.from(match[3]);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
