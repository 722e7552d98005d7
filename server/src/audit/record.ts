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
 */
export async function recordAudit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actor: entry.actor.slice(0, 320),
    actorUserId: entry.actorUserId ?? null,
    action: entry.action,
    target: entry.target == null ? null : String(entry.target),
    detail: entry.detail ?? null,
    ip: entry.ip ?? null,
  });
}

/** The audit record's who and from where, for a staff request. */
export const auditBy = (staff: { id: number; email: string }, ip: string) => ({ actor: staff.email, actorUserId: staff.id, ip });
