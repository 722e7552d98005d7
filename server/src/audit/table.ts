import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { AUDIT_ACTIONS } from 'shared-api/contract';

// Mirrors migrations/0009_audit.sql (the SQL is the source of truth, with its CHECK and its append-only trigger).
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actor: text('actor').notNull(),
    actorUserId: integer('actor_user_id'),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    target: text('target'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    ip: text('ip'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at.desc()),
    index('audit_log_actor_at_idx').on(t.actor, t.at),
    index('audit_log_action_at_idx').on(t.action, t.at),
  ],
);
export type AuditRow = typeof auditLog.$inferSelect;

// Mirrors migrations/0030_audit_guard.sql: an audit record naming a person retention anonymised, too recent to
// anonymise yet, and the values to replace in it once it is old enough (privacy/anonymise-records.ts writes and reads it).
export const auditAnonymisePending = pgTable('audit_anonymise_pending', {
  auditId: bigint('audit_id', { mode: 'number' }).primaryKey(),
  vals: text('vals').array().notNull(),
});
