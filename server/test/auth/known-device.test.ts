import { parse } from 'cookie';
import { KNOWN_DEVICE_DAYS, KnownDevices, knownDeviceCookie } from '../../src/auth/known-device';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { createThrowawayPostgres, freshPglite } from '../helpers';

// An app on a fresh database (the first test file to need one makes the cached dump: migrations and pg-boss).
jest.setTimeout(60_000);

// The known-device cookie a login sets: HttpOnly, only for the login route, and recognised only for its own account,
// unaltered and unexpired, by every replica (its key is in the database).

const cookieHeader = (setCookie: string) => setCookie.split(';')[0];

describe('known-device cookies', () => {
  let database: DatabaseHandle;
  let devices: KnownDevices;
  beforeAll(async () => {
    database = await freshPglite();
    devices = await KnownDevices.load(database.db);
  });
  afterAll(() => database.close());

  it('is HttpOnly, SameSite=Strict, sent back only to /auth/login, for 90 days; Secure when the API is on HTTPS', () => {
    const plain = devices.setCookie(7, false);
    expect(plain).toMatch(new RegExp(`^${knownDeviceCookie(7)}=`));
    for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/auth/login', `Max-Age=${KNOWN_DEVICE_DAYS * 86_400}`]) expect(plain).toContain(attribute);
    expect(plain).not.toContain('Secure');
    expect(devices.setCookie(7, true)).toContain('Secure');
  });

  it('is recognised for its own account only, unaltered and unexpired', () => {
    const now = Date.now();
    const header = cookieHeader(devices.setCookie(7, false, now));
    expect(devices.recognises(header, 7, now)).toBe(true);
    expect(devices.recognises(`theme=dark; ${header}; lang=ms`, 7, now)).toBe(true);
    // Another account's login, a missing or empty cookie.
    expect(devices.recognises(header, 8, now)).toBe(false);
    expect(devices.recognises(undefined, 7, now)).toBe(false);
    expect(devices.recognises(`${knownDeviceCookie(7)}=`, 7, now)).toBe(false);
    // Copied under another account's name, or its expiry pushed out: the signature no longer matches.
    const value = parse(header)[knownDeviceCookie(7)]!;
    expect(devices.recognises(`${knownDeviceCookie(8)}=${value.replace(/^7\./, '8.')}`, 8, now)).toBe(false);
    const [id, expires, mac] = value.split('.');
    expect(devices.recognises(`${knownDeviceCookie(7)}=${id}.${Number(expires) + 86_400}.${mac}`, 7, now)).toBe(false);
    // Expired.
    expect(devices.recognises(header, 7, now + (KNOWN_DEVICE_DAYS + 1) * 86_400_000)).toBe(false);
  });
});

describe('known-device cookies on PostgreSQL', () => {
  it('one made by one replica is recognised by another (its key is shared through the database)', async () => {
    const { url, drop } = await createThrowawayPostgres('known_device');
    const replicas = [await openDatabase({ driver: 'postgres', url, poolSize: 1 }), await openDatabase({ driver: 'postgres', url, poolSize: 1 })];
    try {
      await migrate(replicas[0]);
      const [a, b] = await Promise.all(replicas.map((r) => KnownDevices.load(r.db)));
      expect(b.recognises(cookieHeader(a.setCookie(3, false)), 3)).toBe(true);
    } finally {
      for (const r of replicas) await r.close();
      await drop();
    }
  });
});
