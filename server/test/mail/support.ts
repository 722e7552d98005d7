// What the mail tests share: a real SMTP server that can refuse, and outbox rows written straight into the database.
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { DatabaseHandle } from '../../src/db/connection';
import { mailOutbox, payments, type MailRow } from '../../src/payments/tables';
import { insertSlot, visitor } from '../helpers';

type Received = { mail: ParsedMail; to: string[] };

/** A real SMTP server on an ephemeral (or given) port that parses every message it accepts (after `delayMs`); `refuse` makes it answer 421. */
export async function startSmtp(port = 0, delayMs = 0) {
  const received: Received[] = [];
  const state = { refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      callback(state.refusing ? Object.assign(new Error('Service not available, try again later'), { responseCode: 421 }) : undefined);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => new Promise<ParsedMail>((resolve) => setTimeout(() => resolve(mail), delayMs)))
        .then((mail) => {
          received.push({ mail, to: session.envelope.rcptTo.map((r) => r.address) });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const address = server.server.address() as AddressInfo;
  return {
    received,
    url: `smtp://127.0.0.1:${address.port}`,
    port: address.port,
    refuse: (refusing: boolean) => void (state.refusing = refusing),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}


type PaymentFixture = Partial<typeof payments.$inferInsert> & { visitorEmail: string };
type MailFixture = { kind: MailRow['kind']; status?: MailRow['status']; minutesAgo: number; attempts?: number; lastError?: string };

/** A payment (its slot `hoursAhead` from now) with the given outbox rows, written `minutesAgo` each; returns the payment. */
export async function paymentWithMail(database: DatabaseHandle, hoursAhead: number, payment: PaymentFixture, mails: MailFixture[] = []) {
  const slot = await insertSlot(database, hoursAhead);
  const id = `pay_test_${slot.id}`;
  const [row] = await database.db
    .insert(payments)
    .values({
      id,
      reference: `PAY-TEST-${slot.id}`,
      slotId: slot.id,
      status: 'completed',
      amountSen: 7500,
      ...visitor,
      holdToken: `hold-${slot.id}`,
      gateway: 'sandbox',
      sessionExpiresAt: new Date(),
      ...payment,
    })
    .returning();
  for (const mail of mails) {
    await database.db.insert(mailOutbox).values({
      paymentId: id,
      kind: mail.kind,
      recipient: mail.kind.startsWith('visitor') ? payment.visitorEmail : 'office@school.test',
      subject: `Subject for ${payment.visitorEmail}`,
      textBody: `Dear ${visitor.visitorName}`,
      htmlBody: `<p>Dear ${visitor.visitorName}</p>`,
      messageId: `<${id}.${mail.kind}@school.test>`,
      status: mail.status ?? 'pending',
      attempts: mail.attempts ?? 0,
      lastError: mail.lastError ?? null,
      createdAt: sql`now() - make_interval(mins => ${mail.minutesAgo})`,
      nextAttemptAt: sql`now()`,
    });
  }
  return row;
}
