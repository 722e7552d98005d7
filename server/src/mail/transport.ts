import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export type OutgoingMail = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  ics: string | null;
  /** The message's language as a BCP 47 tag (a parent's message): sent as Content-Language. */
  language?: string;
};

export type MailSender = { describe: string; send(mail: OutgoingMail): Promise<void>; close(): void };

export type SmtpTimeouts = { connectionTimeoutMs: number; greetingTimeoutMs: number; socketTimeoutMs: number };
export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectionTimeoutMs: 5_000, greetingTimeoutMs: 5_000, socketTimeoutMs: 10_000 };

const message = (mail: OutgoingMail) => ({
  from: mail.from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  messageId: mail.messageId,
  ...(mail.language ? { headers: { 'Content-Language': mail.language } } : {}),
  attachments: mail.ics
    ? [{ filename: 'assessment-visit.ics', content: mail.ics, contentType: `text/calendar; charset=utf-8; method=${/^METHOD:(\w+)/m.exec(mail.ics)?.[1] ?? 'REQUEST'}` }]
    : [],
});

/** SMTP (SMTP_URL) with short timeouts, one connection per message (no pool to go stale). */
export function smtpSender(url: string, timeouts: SmtpTimeouts = DEFAULT_SMTP_TIMEOUTS): MailSender {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: timeouts.connectionTimeoutMs,
    greetingTimeout: timeouts.greetingTimeoutMs,
    socketTimeout: timeouts.socketTimeoutMs,
  });
  return {
    describe: `SMTP ${new URL(url).host}`,
    send: async (mail) => {
      await transport.sendMail(message(mail));
    },
    close: () => transport.close(),
  };
}

/** The default: each message as an .eml file in `folder` (open it with any mail program). */
export function emlFileSender(folder: string): MailSender {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: `.eml files in ${folder}`,
    send: async (mail) => {
      const info = await transport.sendMail(message(mail));
      fs.mkdirSync(folder, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.messageId.replace(/[^\w.-]+/g, '')}.eml`;
      const tmp = path.join(folder, `.${name}.tmp`);
      fs.writeFileSync(tmp, info.message as Buffer);
      fs.renameSync(tmp, path.join(folder, name));
    },
    close: () => transport.close(),
  };
}
