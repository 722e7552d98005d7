import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../base/db/connection';
import { stateRankSql } from './outbox';
import { whatsappEvents, whatsappMessages } from './tables';

export const STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type PlatformStatus = (typeof STATUSES)[number];
type PlatformError = { code?: number | string; title?: string; message?: string };

/**
 * Moves a message to a status the platform reported, only forward (sent < delivered < read; failed ends it) and only
 * when not older than the status applied last (state_at): duplicates and out-of-order posts end in the right state.
 */
export async function applyStatus(tx: DbOrTx, wamid: string, status: string, at: Date, errors?: unknown): Promise<boolean> {
  if (!(STATUSES as readonly string[]).includes(status)) return false;
  const error = Array.isArray(errors) ? (errors[0] as PlatformError | undefined) : undefined;
  const changed = await tx
    .update(whatsappMessages)
    .set({
      state: status as PlatformStatus,
      stateAt: at,
      ...(status === 'failed' ? { errorCode: error?.code === undefined ? null : String(error.code), errorTitle: error?.title ?? error?.message ?? null } : {}),
    })
    .where(
      and(
        eq(whatsappMessages.wamid, wamid),
        sql`(${stateRankSql(sql`${status}::text`)} > ${stateRankSql(whatsappMessages.state)}
             OR (${status}::text = ${whatsappMessages.state} AND ${whatsappMessages.stateAt} IS NULL))`,
        sql`(${whatsappMessages.stateAt} IS NULL OR ${whatsappMessages.stateAt} <= ${at})`,
      ),
    )
    .returning({ id: whatsappMessages.id });
  return changed.length > 0;
}

/** Serialises a wamid's status posts with the send job storing it (so a status arriving first is never lost). */
export const lockWamid = (tx: DbOrTx, wamid: string) => tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${'whatsapp:' + wamid}))`);

/** One status from the webhook: recorded once per (wamid, status), applied when first recorded. Resolves true when new. */
export async function recordStatus(db: DbOrTx, status: { id: string; status: string; timestamp: string; errors?: unknown }): Promise<boolean> {
  const at = new Date(Number(status.timestamp) * 1000);
  if (!status.id || Number.isNaN(at.getTime())) return false;
  return db.transaction(async (tx) => {
    await lockWamid(tx, status.id);
    const [inserted] = await tx
      .insert(whatsappEvents)
      .values({ wamid: status.id, status: status.status, platformAt: at, raw: status })
      .onConflictDoNothing()
      .returning({ id: whatsappEvents.id });
    if (!inserted) return false;
    await applyStatus(tx, status.id, status.status, at, status.errors);
    return true;
  });
}
