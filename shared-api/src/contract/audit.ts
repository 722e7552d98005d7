// Audit trail (issue 15): who did what on the staff side (and parents' changes), when and from where.
// One contract for the server (GET /staff/audit) and the admin remote's audit page (lazy chunk, via 'shared-api/audit').
import { z } from 'zod';
import { wholeNumberSchema } from './schemas';

/** Every action the trail records; the audit_log.action CHECK (migration 0009) lists the same. */
export const AUDIT_ACTIONS = [
  'login',
  'login_failed',
  'logout',
  'logout_all',
  'slot_created',
  'slot_deleted',
  'booking_direct',
  'booking_cancelled_by_staff',
  'booking_moved_by_staff',
  'refund',
  'account_added',
  'account_disabled',
  'password_reset_requested',
  'password_reset',
  'parent_rescheduled',
  'parent_cancelled',
  'privacy_person_viewed',
  'privacy_person_exported',
  'retention_applied',
  'privacy_request_logged',
  'privacy_request_extended',
  'privacy_request_answered',
  'waitlist_moved',
  'waitlist_removed',
  'privacy_visitor_corrected',
  'breach_logged',
  'breach_commissioner_notified',
  'breach_people_exported',
  'breach_people_notified',
  'account_role_changed',
  'second_factor_enrolled',
  'second_factor_verified',
  'second_factor_failed',
  'recovery_code_used',
  'second_factor_reset',
  'breach_notify_asked',
  'document_downloaded',
  'document_marked',
  'visit_arrived',
  'visit_no_show',
  'visit_attendance_undone',
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** How the audit page names each action. */
export const AuditActionLabel: Record<AuditAction, string> = {
  login: 'Signed in',
  login_failed: 'Failed sign-in',
  logout: 'Signed out',
  logout_all: 'Signed out everywhere',
  slot_created: 'Slot created',
  slot_deleted: 'Slot deleted',
  booking_direct: 'Direct booking',
  booking_cancelled_by_staff: 'Booking cancelled by staff',
  booking_moved_by_staff: 'Booking moved by staff',
  refund: 'Refund',
  account_added: 'Account added',
  account_disabled: 'Account disabled',
  password_reset_requested: 'Password reset requested',
  password_reset: 'Password reset',
  parent_rescheduled: 'Parent rescheduled',
  parent_cancelled: 'Parent cancelled',
  privacy_person_viewed: "Person's data viewed",
  privacy_person_exported: "Person's data exported",
  retention_applied: 'Personal data anonymised (retention)',
  privacy_request_logged: 'Access or correction request logged',
  privacy_request_extended: 'Request extended to 35 days',
  privacy_request_answered: 'Request answered',
  waitlist_moved: 'Waitlist entry moved',
  waitlist_removed: 'Waitlist entry removed',
  privacy_visitor_corrected: "Visitor's details corrected",
  breach_logged: 'Personal data breach logged',
  breach_commissioner_notified: 'Breach: Commissioner notified',
  breach_people_exported: "Breach: affected people's contacts exported",
  breach_people_notified: 'Breach: affected people notified by mail',
  account_role_changed: 'Role changed',
  second_factor_enrolled: 'Second factor set up',
  second_factor_verified: 'Second factor given',
  second_factor_failed: 'Wrong second-factor code',
  recovery_code_used: 'Recovery code used',
  second_factor_reset: "Colleague's second factor reset",
  breach_notify_asked: 'Breach: mailing asked, waiting for a second admin',
  document_downloaded: "Child's document downloaded",
  document_marked: 'Document marked checked or seen on paper',
  visit_arrived: 'Visit marked arrived',
  visit_no_show: 'Visit marked no-show',
  visit_attendance_undone: "Visit's arrival or no-show undone",
};

/** The largest page GET /staff/audit answers. */
export const AUDIT_PAGE_MAX = 100;
export const AUDIT_PAGE_DEFAULT = 50;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string()
  .regex(DAY, 'Use a date like 2026-03-02')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'Not a calendar date');

/**
 * GET /staff/audit query. `actor`: an exact match, or a part of it (case-insensitive) with `actorMatch=contains`
 * (the default). `from` / `to`: days in GMT+8, both inclusive.
 */
export const auditQuerySchema = z
  .object({
    actor: z.string().trim().max(320).optional(),
    actorMatch: z.enum(['exact', 'contains']).default('contains'),
    action: auditActionSchema.optional(),
    from: day.optional(),
    to: day.optional(),
    page: wholeNumberSchema(1_000_000).default(1),
    limit: wholeNumberSchema(AUDIT_PAGE_MAX).default(AUDIT_PAGE_DEFAULT),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'The start date must not be after the end date', path: ['to'] });
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditRecordSchema = z.object({
  id: z.number().int(),
  /** ISO instant (UTC); the page shows it in GMT+8. */
  at: z.string(),
  /** A staff member's email, 'parent', 'system', or the email tried at a failed sign-in. */
  actor: z.string(),
  action: auditActionSchema,
  /** A slot id, a booking reference or an account email. */
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  /** The client's address as the API saw it. */
  ip: z.string().nullable(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

export const auditPageSchema = z.object({
  rows: z.array(auditRecordSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
