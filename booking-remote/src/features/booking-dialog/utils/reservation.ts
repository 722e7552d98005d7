import { HOLD_MINUTES, HOLD_WARNING_MINUTES } from 'shared-api';
import { BookingMessage } from 'shared-api/messages';

/** The hold on a slot as the browser keeps it (spec section 3); the server holds it too, keyed by the token. */
export type SlotReservation = {
  slotId: number;
  /** ISO instant. */
  reservedAt: string;
  /** ISO instant. */
  expiresAt: string;
  duration: number;
  token: string;
};

const at = (now: Date | number) => (typeof now === 'number' ? now : now.getTime());

/** A reservation from the server's answer; expiry is the server's when given, else now + minutes. */
export function createReservation(
  slotId: number,
  token: string,
  now: Date | number = Date.now(),
  minutes = HOLD_MINUTES,
  serverExpiresAt?: string,
): SlotReservation {
  const start = at(now);
  const serverExpiry = serverExpiresAt ? Date.parse(serverExpiresAt) : NaN;
  const expiresAt = Number.isFinite(serverExpiry) ? serverExpiry : start + minutes * 60_000;
  // The duration is the server's hold as it is (an offer's remaining time, a hold shortened by the hold-time cap).
  const duration = Math.max(1, Math.round((expiresAt - start) / 60_000));
  return { slotId, token, duration, reservedAt: new Date(start).toISOString(), expiresAt: new Date(expiresAt).toISOString() };
}

export const reservationRemainingMs = (r: SlotReservation, now: Date | number = Date.now()): number =>
  Math.max(0, Date.parse(r.expiresAt) - at(now));

/** Valid while now is before expiry. */
export const isReservationValid = (r: SlotReservation | null | undefined, now: Date | number = Date.now()): r is SlotReservation =>
  Boolean(r) && at(now) < Date.parse((r as SlotReservation).expiresAt);

/** About to expire: still valid with 2 minutes or less left. */
export const isReservationAboutToExpire = (r: SlotReservation | null | undefined, now: Date | number = Date.now()): boolean =>
  isReservationValid(r, now) && reservationRemainingMs(r, now) <= HOLD_WARNING_MINUTES * 60_000;

/** The reservation, or null once it has expired (expired ones are cleared). */
export const activeReservation = (r: SlotReservation | null | undefined, now: Date | number = Date.now()): SlotReservation | null =>
  isReservationValid(r, now) ? r : null;

/** Pushes the expiry back by `minutes` (local only); fails without a valid reservation. */
export function extendReservation(r: SlotReservation | null | undefined, minutes = HOLD_MINUTES, now: Date | number = Date.now()): SlotReservation {
  if (!isReservationValid(r, now)) throw new Error(BookingMessage.noReservationToExtend);
  return { ...r, duration: r.duration + minutes, expiresAt: new Date(Date.parse(r.expiresAt) + minutes * 60_000).toISOString() };
}

/** "m:ss" for a number of milliseconds. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
