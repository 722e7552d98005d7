import { sql, type SQL } from 'drizzle-orm';
import { ErrorCode, HOLD_TIME_CAP_MINUTES, HOLD_TIME_WINDOW_MINUTES, HoldMessage } from 'shared-api/contract';
import { sha256 } from '../base/crypto';
import type { DbOrTx } from '../base/db/connection';
import { HoldRefusal } from './limits';
import { instant, type HoldHolder } from './hold-rows';

/*
 * A slot's hold time is capped per client network, per email and per phone: HOLD_TIME_CAP_MINUTES within the last
 * HOLD_TIME_WINDOW_MINUTES, whatever the renewals, releases and new tokens. Every time a hold's end is set (a new hold,
 * a payment start, a renewal) the time is granted here, in the hold's transaction under the holder's advisory locks:
 * what the holder's keys already had on this slot in the window (hold_grants, its current hold included) is counted and
 * the hold ends no later than the cap allows. So no hold lasts past its cap unless it is paid for (a booking).
 */

const CAP_SECONDS = HOLD_TIME_CAP_MINUTES * 60;
const windowStartAt = (now: SQL) => sql`${now} - make_interval(mins => ${HOLD_TIME_WINDOW_MINUTES})`;
/** Less than this left of the cap is not worth a hold: none is given. */
export const MIN_GRANT_SECONDS = 60;

/** How long a hold should run: `minutes` from now, or to its current end ('keep'); either within the cap. */
export type HoldLength = { minutes: number } | 'keep';

const rows = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Sets the end of the hold `token` has on `slotId` to what `length` asks, but no later than its holder's keys have left
 * of the cap on this slot, and records the grant. The hold must be live and this token's. Throws HOLD_TIME_USED
 * (429, Retry-After) when less than MIN_GRANT_SECONDS is left, which rolls the caller's transaction back. `at`: the
 * caller's clock when it keeps its own (a waitlist offer), else the database's now().
 */
export async function grantHoldTime(tx: DbOrTx, slotId: number, token: string, holder: HoldHolder, length: HoldLength, at?: Date): Promise<Date> {
  const now = instant(at);
  const windowStart = windowStartAt(now);
  const tokenHash = sha256(token);
  const email = holder.email ?? null;
  const phone = holder.phone ?? null;
  const wantedEnd = length === 'keep' ? sql`slots.hold_expires_at` : sql`${now} + make_interval(secs => ${length.minutes * 60})`;
  // One statement (it runs under the holder's locks, so it is kept short). This hold's earlier grants end now (their
  // time stays counted; never before they began, should another request's transaction have written one after this one
  // began), count for every key of whoever holds it now (a hold renewed from another network brings its past along),
  // and keep the visitor's email and phone once known: `counted` reads them so, `ended` writes it.
  const ownEnd = sql`GREATEST(started_at, LEAST(ends_at, ${now}))`;
  const [set] = rows<{ expires_at: Date | string }>(
    await tx.execute(sql`
      WITH counted AS (
        SELECT client, token_hash = ${tokenHash} AS own,
               CASE WHEN token_hash = ${tokenHash} THEN COALESCE(email, ${email}) ELSE email END AS email,
               CASE WHEN token_hash = ${tokenHash} THEN COALESCE(phone, ${phone}) ELSE phone END AS phone,
               EXTRACT(EPOCH FROM (CASE WHEN token_hash = ${tokenHash} THEN ${ownEnd} ELSE ends_at END) - GREATEST(started_at, ${windowStart})) AS seconds
        FROM hold_grants WHERE slot_id = ${slotId} AND ends_at > ${windowStart}
      ), used AS (
        SELECT GREATEST(
          COALESCE(SUM(seconds) FILTER (WHERE (client = ${holder.client} OR own) AND seconds > 0), 0),
          COALESCE(SUM(seconds) FILTER (WHERE (email = ${email} OR own) AND seconds > 0), 0),
          COALESCE(SUM(seconds) FILTER (WHERE (phone = ${phone} OR own) AND seconds > 0), 0)
        ) AS seconds
        FROM counted
      ), ended AS (
        UPDATE hold_grants SET ends_at = ${ownEnd}, email = COALESCE(email, ${email}), phone = COALESCE(phone, ${phone})
        WHERE slot_id = ${slotId} AND token_hash = ${tokenHash} AND ends_at > ${windowStart}
      ), held AS (
        UPDATE slots SET hold_expires_at = LEAST(${wantedEnd}, ${now} + make_interval(secs => (${CAP_SECONDS} - used.seconds)::float8))
        FROM used
        WHERE slots.id = ${slotId} AND slots.hold_token_hash = ${tokenHash} AND slots.status = 'available'
          AND ${CAP_SECONDS} - used.seconds >= ${MIN_GRANT_SECONDS}
        RETURNING slots.hold_expires_at
      ), granted AS (
        INSERT INTO hold_grants (slot_id, token_hash, client, email, phone, started_at, ends_at)
        SELECT ${slotId}::integer, ${tokenHash}::text, ${holder.client}::text, ${email}::text, ${phone}::text, ${now}, hold_expires_at FROM held
      ), swept AS (
        -- Grants older than the window count for nothing: a few are swept each time (none another request is sweeping).
        DELETE FROM hold_grants WHERE id IN (SELECT id FROM hold_grants WHERE ends_at < ${windowStart} LIMIT 100 FOR UPDATE SKIP LOCKED)
      )
      SELECT hold_expires_at AS expires_at FROM held`),
  );
  if (!set) throw new HoldRefusal(ErrorCode.HOLD_TIME_USED, HoldMessage.timeUsed, await secondsUntilTimeFrees(tx, slotId, holder, now));
  return new Date(set.expires_at);
}

/** Seconds until the oldest of the holder's grants on this slot starts leaving the window (then a minute more is free). */
async function secondsUntilTimeFrees(tx: DbOrTx, slotId: number, holder: HoldHolder, now: SQL): Promise<number> {
  const windowStart = windowStartAt(now);
  const [row] = rows<{ seconds: number | string | null }>(
    await tx.execute(sql`
      SELECT EXTRACT(EPOCH FROM MIN(GREATEST(started_at, ${windowStart})) + make_interval(mins => ${HOLD_TIME_WINDOW_MINUTES}) - ${now}) AS seconds
      FROM hold_grants
      WHERE slot_id = ${slotId} AND ends_at > ${windowStart}
        AND (client = ${holder.client} OR email = ${holder.email ?? null} OR phone = ${holder.phone ?? null})`),
  );
  return Math.max(1, Math.ceil(Number(row?.seconds ?? 0)) + MIN_GRANT_SECONDS);
}
