// How the staff alerts word ages, kinds and times (GMT+8), from the admin.alerts catalogue.
import { type StuckMail } from 'shared-api';
import { formatInstant } from '../../../lib/format';
import { alertsText } from '../i18n';

/** '45 min', '3 h 5 min', '2 days 4 h'. */
export function formatAge(minutes: number): string {
  if (minutes < 60) return alertsText('ageMinutes', { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return alertsText('ageHours', { hours, minutes: minutes % 60 });
  return alertsText('ageDays', { days: Math.floor(hours / 24), hours: hours % 24 });
}

const MAIL_KIND_TEXT = {
  visitor_confirmation: 'mailVisitorConfirmation',
  admin_notification: 'mailAdminNotification',
  visitor_refund: 'mailVisitorRefund',
  admin_refund: 'mailAdminRefund',
  visitor_rescheduled: 'mailVisitorRescheduled',
  admin_rescheduled: 'mailAdminRescheduled',
  visitor_cancelled: 'mailVisitorCancelled',
  admin_cancelled: 'mailAdminCancelled',
  visitor_reminder: 'mailVisitorReminder',
  staff_password_reset: 'mailStaffPasswordReset',
  waitlist_confirm: 'mailWaitlistConfirm',
  waitlist_joined: 'mailWaitlistJoined',
  waitlist_offer: 'mailWaitlistOffer',
  waitlist_entry_ended: 'mailWaitlistEntryEnded',
  breach_notification: 'mailBreachNotification',
} as const satisfies Record<StuckMail['kind'], string>;
export const mailKindLabel = (kind: StuckMail['kind']): string => alertsText(MAIL_KIND_TEXT[kind]);

/** '7 Jan 2030, 10:00 AM (GMT+8)'. */
export const formatDateTimeMY = (iso: string): string => alertsText('dateTime', { time: formatInstant(iso) });

/** '2 emails have not been sent for over an hour'. */
export const stuckMailSummary = (count: number): string => alertsText('stuckMail', { count });
/** '1 refund keeps failing'. */
export const failingRefundSummary = (count: number): string => alertsText('failingRefunds', { count });

const QUEUE_TEXT: Record<string, Parameters<typeof alertsText>[0]> = {
  mail: 'queueMail',
  'mail-relay': 'queueMailRelay',
  refund: 'queueRefund',
  'child-refund': 'queueChildRefund',
  reconcile: 'queueReconcile',
  reminders: 'queueReminders',
  'sweep-counters': 'queueSweepCounters',
  retention: 'queueRetention',
  waitlist: 'queueWaitlist',
};
/** What a queue does, in staff words ('Refunds'); a queue added later shows its name. */
export const queueLabel = (queue: string): string => (QUEUE_TEXT[queue] ? alertsText(QUEUE_TEXT[queue]) : queue);
/** '3 background jobs failed in the last 7 days'. */
export const failedJobsSummary = (count: number): string => alertsText('failedJobs', { count });
/** '1 payment was charged back by the bank'. */
export const chargebackSummary = (count: number): string => alertsText('chargebacks', { count });
