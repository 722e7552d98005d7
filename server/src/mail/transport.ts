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
  /** The Message-ID this one follows (a booking's confirmation): sent as In-Reply-To and References. */
  inReplyTo?: string | null;
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
  ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo, references: [mail.inReplyTo] } : {}),
  // Every message is sent by the product, never by a person (RFC 3834): no out-of-office replies to it.
  headers: { 'Auto-Submitted': 'auto-generated', ...(mail.language ? { 'Content-Language': mail.language } : {}) },
  attachments: mail.ics
    ? [{ filename: 'assessment-visit.ics', content: mail.ics, contentType: `text/calendar; charset=utf-8; method=${/^METHOD:(\w+)/m.exec(mail.ics)?.[1] ?? 'REQUEST'}` }]
    : [],
});

/**
 * True for a send error after the whole message reached the mail server but before its final reply (the connection
 * was lost or timed out waiting for the 250): the server may have stored the message, so sending it again may deliver
 * it twice.
 */
export const mayHaveBeenDelivered = (err: unknown): boolean => (err as { maybeDelivered?: unknown } | null)?.maybeDelivered === true;

/** SMTP (SMTP_URL) with short timeouts, one connection per message (no pool to go stale). */
export function smtpSender(url: string, timeouts: SmtpTimeouts = DEFAULT_SMTP_TIMEOUTS): MailSender {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: timeouts.connectionTimeoutMs,
    greetingTimeout: timeouts.greetingTimeoutMs,
    socketTimeout: timeouts.socketTimeoutMs,
  });
  // nodemailer reports a connection lost while waiting for the final reply exactly like one lost at any earlier step
  // (ECONNECTION or ETIMEDOUT, command CONN, no response), so the sender watches the message itself: the connection
  // reads it only after the server's 354 to DATA, and reading it to the end means the whole body went out.
  const bodySent = new Map<string, boolean>();
  transport.use('stream', (mail, done) => {
    const id = String(mail.data.messageId);
    if (bodySent.has(id)) mail.message.processFunc((input) => input.once('end', () => bodySent.set(id, true)));
    done();
  });
  return {
    describe: `SMTP ${new URL(url).host}`,
    send: async (mail) => {
      bodySent.set(mail.messageId, false);
      try {
        await transport.sendMail(message(mail));
      } catch (err) {
        // A reply to the data (4xx, 5xx) is a refusal: the message was not stored.
        if (bodySent.get(mail.messageId) && err instanceof Error && !(err as { responseCode?: number }).responseCode)
          Object.assign(err, { maybeDelivered: true });
        throw err;
      } finally {
        bodySent.delete(mail.messageId);
      }
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
