// A real SMTP server (smtp-server) the product sends to through SMTP_URL; each message parsed with mailparser.
import fs from 'node:fs';
import path from 'node:path';
import net, { type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { eventually } from './journey';
import type { Stack } from './product';

export type Inbox = {
  url: string;
  port: number;
  messages: ParsedMail[];
  /** Stops listening (new connections are refused), as a mail server that is down. */
  stop: () => Promise<void>;
  /** Listens again on the same port (ending a hang first). */
  start: () => Promise<void>;
  /** A hung mail server: the port accepts connections but never greets (the sender's timeouts run out). */
  hang: () => Promise<void>;
  /** Messages to `address` (case-insensitive). */
  to: (address: string) => ParsedMail[];
  waitFor: (predicate: (mail: ParsedMail) => boolean, what: string, timeoutMs?: number) => Promise<ParsedMail>;
};

const recipients = (mail: ParsedMail): string[] => {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((group) => group.value.map((address) => (address.address ?? '').toLowerCase()));
};

export async function startInbox(): Promise<Inbox> {
  const messages: ParsedMail[] = [];
  let server: SMTPServer | undefined;
  let silent: net.Server | undefined;
  const held = new Set<net.Socket>();
  let port = 0;

  const endHang = () =>
    new Promise<void>((resolve) => {
      const current = silent;
      silent = undefined;
      for (const socket of held) socket.destroy();
      if (!current) return resolve();
      current.close(() => resolve());
    });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, _session, callback) {
          simpleParser(stream)
            .then((mail) => {
              messages.push(mail);
              callback();
            })
            .catch((error: Error) => callback(error));
        },
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.server.address() as AddressInfo).port;
        resolve();
      });
    });

  await listen();
  const inbox: Inbox = {
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    messages,
    stop: () =>
      new Promise<void>((resolve) => {
        const current = server;
        server = undefined;
        if (!current) return resolve();
        current.close(() => resolve());
      }),
    start: async () => {
      await endHang();
      await listen();
    },
    hang: async () => {
      await inbox.stop();
      await new Promise<void>((resolve, reject) => {
        silent = net.createServer((socket) => {
          held.add(socket);
          socket.on('close', () => held.delete(socket));
          socket.on('error', () => socket.destroy());
        });
        silent.once('error', reject);
        silent.listen(port, '127.0.0.1', () => resolve());
      });
    },
    to: (address) => messages.filter((mail) => recipients(mail).includes(address.toLowerCase())),
    waitFor: async (predicate, what, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find(predicate);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`No mail ${what} within ${timeoutMs / 1000} s; got: ${messages.map((m) => `${recipients(m).join(',')}: ${m.subject}`).join(' | ') || 'none'}`);
    },
  };
  return inbox;
}

export const mailTo = (address: string) => (mail: ParsedMail) => recipients(mail).includes(address.toLowerCase());

/** The .ics attachment's text, if the mail carries one. */
export function icsOf(mail: ParsedMail): string | undefined {
  const attachment = mail.attachments.find((a) => a.contentType.startsWith('text/calendar') || a.filename?.endsWith('.ics'));
  return attachment?.content.toString('utf8');
}

/** The .eml files the API wrote to `dir` (no SMTP_URL: mail to files), parsed, oldest first. */
export async function emlFiles(dir: string): Promise<ParsedMail[]> {
  if (!fs.existsSync(dir)) return [];
  const names = fs.readdirSync(dir).filter((name) => name.endsWith('.eml'));
  const withTimes = names.map((name) => ({ file: path.join(dir, name), at: fs.statSync(path.join(dir, name)).mtimeMs }));
  withTimes.sort((a, b) => a.at - b.at || a.file.localeCompare(b.file));
  return Promise.all(withTimes.map(({ file }) => simpleParser(fs.readFileSync(file))));
}

/**
 * Waits until the API has sent everything in its outbox: no later round can then add a mail, so counts read after it
 * are final (rather than watching the inbox for a while).
 */
export async function outboxSent(stack: Pick<Stack, 'outboxDepth'>, timeoutMs = 30_000): Promise<void> {
  await eventually(async () => (await stack.outboxDepth()) === 0, 'the outbox to be sent', timeoutMs);
}
