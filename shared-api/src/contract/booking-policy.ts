// When parents may change a booking, what a cancel refunds and when reminders go: `bookingChanges` in brand.config.json.
import brandConfig from '../../../brand.config.json';

export type RefundTier = { /** At least this many hours before the visit... */ hoursBefore: number; /** ...this share of what was paid comes back. */ percent: number };
export type BookingChangesPolicy = {
  /** Reschedule and cancel close this many hours before the visit. */
  cutoffHours: number;
  /** Tiers, any order; the first tier (by most hours) the cancel is early enough for applies; none: no refund. */
  refundPolicy: RefundTier[];
  /** The reminder goes `daysBefore` days before the visit's day, at `time` (HH:mm, GMT+8). */
  reminder: { daysBefore: number; time: string };
};

export const DEFAULT_BOOKING_CHANGES: BookingChangesPolicy = {
  cutoffHours: 24,
  refundPolicy: [{ hoursBefore: 48, percent: 100 }],
  reminder: { daysBefore: 1, time: '09:00' },
};

const configured = (brandConfig as { bookingChanges?: Partial<BookingChangesPolicy> }).bookingChanges ?? {};
export const bookingChanges: BookingChangesPolicy = { ...DEFAULT_BOOKING_CHANGES, ...configured };

/** The refund percentage for a cancel `hoursBefore` the visit starts (0 when no tier applies). */
export function refundPercent(policy: BookingChangesPolicy, hoursBefore: number): number {
  const tier = [...policy.refundPolicy].sort((a, b) => b.hoursBefore - a.hoursBefore).find((t) => hoursBefore >= t.hoursBefore);
  return tier ? Math.max(0, Math.min(100, Math.round(tier.percent))) : 0;
}

/** Integer sen: `percent` of `paidSen`, rounded down (never more than was paid). */
export const refundAmountSen = (paidSen: number, percent: number): number => Math.floor((paidSen * percent) / 100);
