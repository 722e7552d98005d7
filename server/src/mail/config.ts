import { intFrom } from '../base/env';

// The gateway's return addresses and the mail settings travel together in config.payments (one object, read by both).
export type MailConfig = {
  /** SMTP URL; undefined: each message is written as an .eml file in `dataDir/mail`. */
  smtpUrl: string | undefined;
  mailFrom: string;
  adminNotifyEmail: string;
  dataDir: string;
  /** How often an idle process looks for mail jobs (MAIL_POLL_MS; a commit that writes mail wakes it at once). */
  mailPollMs: number;
  /** Between two attempts of a message the mail server refused (MAIL_RETRY_SECONDS). */
  mailRetrySeconds: number;
  /** Hours an unsent message is retried before it is marked failed (MAIL_GIVE_UP_HOURS). */
  mailGiveUpHours: number;
};

export const DEFAULT_MAIL_GIVE_UP_HOURS = 72;

/** Zero would give a message up at its first failure: at least one hour of retries. */
function mailGiveUpHoursFrom(value: string | undefined): number {
  const hours = intFrom(value, DEFAULT_MAIL_GIVE_UP_HOURS, 'MAIL_GIVE_UP_HOURS');
  if (hours < 1) throw new Error(`MAIL_GIVE_UP_HOURS must be at least 1, got "${value}"`);
  return hours;
}

export function loadMailConfig(
  env: NodeJS.ProcessEnv,
  base: { dataDir: string; adminEmail: string; supportEmail: string; productName: string },
): MailConfig {
  return {
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || `"${base.productName}" <${base.supportEmail}>`,
    adminNotifyEmail: (env.ADMIN_NOTIFY_EMAIL || base.adminEmail).trim().toLowerCase(),
    dataDir: base.dataDir,
    mailPollMs: intFrom(env.MAIL_POLL_MS, 5_000, 'MAIL_POLL_MS'),
    mailRetrySeconds: Math.max(1, intFrom(env.MAIL_RETRY_SECONDS, 30, 'MAIL_RETRY_SECONDS')),
    mailGiveUpHours: mailGiveUpHoursFrom(env.MAIL_GIVE_UP_HOURS),
  };
}
