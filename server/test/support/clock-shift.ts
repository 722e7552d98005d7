/**
 * Time passing without waiting: one statement that moves every time the hold rules count (holds and their granted
 * time, payments, waitlist offers, entries and join blocks, rate counters) `ms` into the past, so the database reads as if that much
 * more time had passed. Plain SQL text, for the tests (drizzle's `sql.raw`) and the benches (a pg client) alike.
 */
export function shiftTimesSql(ms: number): string {
  const by = `interval '${Math.round(ms)} milliseconds'`;
  return `DO $$ BEGIN
    SET LOCAL deadlock_timeout = '50ms';
    UPDATE slots SET hold_expires_at = hold_expires_at - ${by} WHERE hold_expires_at IS NOT NULL;
    UPDATE hold_grants SET started_at = started_at - ${by}, ends_at = ends_at - ${by};
    UPDATE payments SET created_at = created_at - ${by}, session_expires_at = session_expires_at - ${by};
    UPDATE waitlist_offers SET created_at = created_at - ${by}, starts_at = starts_at - ${by}, expires_at = expires_at - ${by};
    UPDATE waitlist_entries SET joined_at = joined_at - ${by}, offerable_after = offerable_after - ${by};
    UPDATE rate_counters SET window_start = window_start - ${by};
    UPDATE waitlist_join_blocks SET until = until - ${by};
  END $$`;
}
