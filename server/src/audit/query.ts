import { and, count, desc, eq, gte, ilike, lt, type SQL } from 'drizzle-orm';
import { dayInMY, type AuditAction, type AuditPage } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { auditLog } from './table';

export type AuditFilter = {
  actor?: string;
  actorMatch: 'exact' | 'contains';
  action?: AuditAction;
  /** YYYY-MM-DD days in GMT+8, both inclusive. */
  from?: string;
  to?: string;
  page: number;
  limit: number;
};

/** A LIKE pattern finding `text` anywhere, its `%`, `_` and `\\` taken literally (also the staff list's search). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The records matching `filter`, newest first (ties by id), one page of them, and how many match in all. */
export async function listAudit(db: DbOrTx, filter: AuditFilter): Promise<AuditPage> {
  const where: SQL[] = [];
  const actor = filter.actor?.trim();
  if (actor) where.push(filter.actorMatch === 'exact' ? eq(auditLog.actor, actor) : ilike(auditLog.actor, likePattern(actor)));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.from) where.push(gte(auditLog.at, dayInMY(filter.from).toDate()));
  if (filter.to) where.push(lt(auditLog.at, dayInMY(filter.to).add(1, 'day').toDate()));
  const condition = where.length ? and(...where) : undefined;
  const [{ n }] = await db.select({ n: count() }).from(auditLog).where(condition);
  const rows = await db
    .select()
    .from(auditLog)
    .where(condition)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(filter.limit)
    .offset((filter.page - 1) * filter.limit);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actor: r.actor,
      action: r.action,
      target: r.target,
      detail: r.detail ?? null,
      ip: r.ip,
    })),
    total: Number(n),
    page: filter.page,
    limit: filter.limit,
  };
}
