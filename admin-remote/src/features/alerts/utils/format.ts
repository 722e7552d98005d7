// How the staff alerts word ages, kinds and times (GMT+8).
import { inMY, type StuckMail } from 'shared-api';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** '45 min', '3 h 5 min', '2 days 4 h'. */
export function formatAge(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${plural(Math.floor(hours / 24), 'day', 'days')} ${hours % 24} h`;
}

const MAIL_KIND_LABEL: Record<StuckMail['kind'], string> = {
  visitor_confirmation: 'Booking confirmation',
  admin_notification: 'New-booking notice to the school',
  visitor_refund: 'Refund notice',
  admin_refund: 'Refund notice to the school',
  visitor_rescheduled: 'Booking moved',
  admin_rescheduled: 'Booking-moved notice to the school',
  visitor_cancelled: 'Booking cancelled',
  admin_cancelled: 'Cancellation notice to the school',
  visitor_reminder: 'Visit reminder',
  staff_password_reset: 'Staff password reset',
};
export const mailKindLabel = (kind: StuckMail['kind']): string => MAIL_KIND_LABEL[kind];

/** '7 Jan 2030, 10:00 AM (GMT+8)'. */
export const formatDateTimeMY = (iso: string): string => `${inMY(iso).format('D MMM YYYY, h:mm A')} (GMT+8)`;

export const stuckMailSummary = (n: number): string =>
  `${plural(n, 'email has', 'emails have')} not been sent for over an hour`;
export const failingRefundSummary = (n: number): string => `${plural(n, 'refund keeps', 'refunds keep')} failing`;
export const attemptsText = (n: number): string => plural(n, 'attempt', 'attempts');
