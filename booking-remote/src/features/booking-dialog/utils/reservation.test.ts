import {
  activeReservation,
  createReservation,
  extendReservation,
  formatCountdown,
  isReservationAboutToExpire,
  isReservationValid,
} from './reservation';

const T0 = new Date('2026-11-25T10:00:00+08:00').getTime();
const min = 60_000;

describe('reservation helpers (spec section 4)', () => {
  it('holds for 15 minutes by default', () => {
    const r = createReservation(7, 'tok', T0);
    expect(r).toMatchObject({ slotId: 7, token: 'tok', duration: 15 });
    expect(Date.parse(r.expiresAt) - T0).toBe(15 * min);
  });

  it("uses the server's expiry when it gives one", () => {
    const r = createReservation(7, 'tok', T0, 15, new Date(T0 + 14 * min).toISOString());
    expect(Date.parse(r.expiresAt) - T0).toBe(14 * min);
    expect(r.duration).toBe(14);
  });

  it("an offer's hold lasts what is left of the offer, said in minutes", () => {
    const r = createReservation(7, 'tok', T0, 15, new Date(T0 + 27 * min + 20_000).toISOString());
    expect(r.duration).toBe(27);
  });

  it('is valid before expiry and not at or after it', () => {
    const r = createReservation(7, 'tok', T0);
    expect(isReservationValid(r, T0 + 15 * min - 1)).toBe(true);
    expect(isReservationValid(r, T0 + 15 * min)).toBe(false);
    expect(isReservationValid(null, T0)).toBe(false);
  });

  it('is about to expire with 2 minutes or less left, not with more, not once expired', () => {
    const r = createReservation(7, 'tok', T0);
    expect(isReservationAboutToExpire(r, T0 + 12 * min)).toBe(false);
    expect(isReservationAboutToExpire(r, T0 + 13 * min)).toBe(true);
    expect(isReservationAboutToExpire(r, T0 + 14 * min + 59_000)).toBe(true);
    expect(isReservationAboutToExpire(r, T0 + 15 * min)).toBe(false);
  });

  it('clears an expired reservation', () => {
    const r = createReservation(7, 'tok', T0);
    expect(activeReservation(r, T0 + 5 * min)).toBe(r);
    expect(activeReservation(r, T0 + 16 * min)).toBeNull();
  });

  it('extends a valid reservation and refuses an invalid one', () => {
    const r = createReservation(7, 'tok', T0);
    const longer = extendReservation(r, 10, T0 + min);
    expect(Date.parse(longer.expiresAt) - T0).toBe(25 * min);
    expect(() => extendReservation(r, 10, T0 + 20 * min)).toThrow('No valid reservation to extend');
    expect(() => extendReservation(null)).toThrow('No valid reservation to extend');
  });

  it('formats a countdown as m:ss', () => {
    expect(formatCountdown(5 * min)).toBe('5:00');
    expect(formatCountdown(61_000)).toBe('1:01');
    expect(formatCountdown(-5)).toBe('0:00');
  });
});
