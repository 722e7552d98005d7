import { sql } from 'drizzle-orm';
import type { AuditAction } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { auditLog } from './table';

export { auditLog, type AuditRow } from './table';

/** Who did it: a staff member's email, 'parent', 'system', or the email tried at a failed sign-in. */
export type AuditActor = string;

export type AuditEntry = {
  actor: AuditActor;
  /** The staff account, when the actor is one. */
  actorUserId?: number | null;
  action: AuditAction;
  /** A slot id, a booking reference or an account email. */
  target?: string | number | null;
  detail?: Record<string, unknown> | null;
  /** The client's address (request.ip). */
  ip?: string | null;
};

/**
 * Appends one record to the audit trail. Pass the transaction of the action itself when there is one, so the record
 * and the change commit (or roll back) together; the table refuses UPDATE and DELETE.
 *
 * One statement declares the actor for its transaction (set_config('app.actor', …, true), and app.actor_user_id) and
 * inserts the record naming it: migration 0030's trigger refuses, for the API's role, a record whose actor is not the
 * declared one, and stamps `at` with the database's clock (the insert names no time).
 */
export async function recordAudit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  const actor = entry.actor.slice(0, 320);
  const userId = entry.actorUserId == null ? '' : String(entry.actorUserId);
  const target = entry.target == null ? null : String(entry.target);
  const detail = entry.detail == null ? null : JSON.stringify(entry.detail);
  await tx.execute(sql`
    WITH declared AS (SELECT set_config('app.actor', ${actor}, true) AS actor, set_config('app.actor_user_id', ${userId}, true) AS user_id)
    INSERT INTO ${auditLog} (actor, actor_user_id, action, target, detail, ip)
    SELECT declared.actor, nullif(declared.user_id, '')::integer, ${entry.action}, ${target}, ${detail}::jsonb, ${entry.ip ?? null} FROM declared`);
}

/** The audit record's who and from where, for a staff request. */
export const auditBy = (staff: { id: number; email: string }, ip: string) => ({ actor: staff.email, actorUserId: staff.id, ip });
