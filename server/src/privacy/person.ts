import { and, asc, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { inMY, type PersonBookingState, type PersonFound, type PersonQuery, type PersonSummary } from 'shared-api/contract';
import { csvFile, phoneCell, type CsvValue } from 'shared-api/csv';
import { noticeText } from 'shared-api/privacy';
import type { DbOrTx } from '../base/db/connection';
import { auditLog } from '../audit';
import { consents } from '../bookings';
import { documentsOfPayments } from '../documents';
import { mailOutbox } from '../mail';
import { paidAmountOf, paymentChildren, payments, type PaymentChildRow, type PaymentRow } from '../payments';
import { slots, type SlotRow } from '../slots';
import { WAITLIST_MAIL_KINDS } from '../waitlist';
import { waitlistEntries } from '../waitlist';

const plain = (row: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));

/**
 * Every record that names one person, found by their email or phone exactly as stored: the slots booked for them,
 * their payments, the consents those name (with the notice text each agreed to), the mails to them, about their payments or their waitlist entries, and the audit entries whose
 * target is one of their bookings or whose detail names their email or phone as a whole JSON value (so a similar
 * address, `aisyah@…` beside `naisyah@…`, never matches).
 */
export async function findPerson(db: DbOrTx, query: PersonQuery): Promise<PersonFound> {
  const email = query.email ?? null;
  const phone = query.phone ?? null;
  const of = (emailColumn: typeof slots.visitorEmail | typeof payments.visitorEmail, phoneColumn: typeof slots.visitorContactNo | typeof payments.visitorContactNo): SQL =>
    email ? eq(emailColumn, email) : eq(phoneColumn, phone!);

  const bookings = await db.select().from(slots).where(and(isNotNull(slots.visitorName), of(slots.visitorEmail, slots.visitorContactNo))).orderBy(asc(slots.id));
  const paid = await db.select().from(payments).where(of(payments.visitorEmail, payments.visitorContactNo)).orderBy(asc(payments.createdAt));
  const paymentIds = paid.map((p) => p.id);
  const references = [...new Set([...paid.map((p) => p.reference), ...bookings.map((b) => b.bookingReference).filter((r): r is string => r !== null)])];
  const waiting = await db
    .select()
    .from(waitlistEntries)
    .where(email ? eq(waitlistEntries.email, email.toLowerCase()) : eq(waitlistEntries.phone, phone!))
    .orderBy(asc(waitlistEntries.id));
  const consentIds = [
    ...new Set([...paid.map((p) => p.consentId), ...bookings.map((b) => b.consentId).filter((c): c is number => c !== null), ...waiting.map((w) => w.consentId)]),
  ];

  const given = consentIds.length > 0 ? await db.select().from(consents).where(inArray(consents.id, consentIds)).orderBy(asc(consents.id)) : [];
  // Found by phone, a waitlist entry's mails are those of its kinds to the address the entry gave (they name no payment).
  const entryEmails = email ? [] : [...new Set(waiting.map((w) => w.email))];
  const mails = await db
    .select()
    .from(mailOutbox)
    .where(
      or(
        email ? eq(mailOutbox.recipient, email) : undefined,
        paymentIds.length > 0 ? inArray(mailOutbox.paymentId, paymentIds) : undefined,
        entryEmails.length > 0 ? and(inArray(mailOutbox.kind, WAITLIST_MAIL_KINDS), inArray(mailOutbox.recipient, entryEmails)) : undefined,
      ) ?? sql`false`,
    )
    .orderBy(asc(mailOutbox.id));
  // A whole JSON string value equal to the email or phone: `"aisyah@example.com"` inside the detail's text.
  const named = JSON.stringify(email ?? phone);
  const audit = await db
    .select()
    .from(auditLog)
    .where(
      or(
        references.length > 0 ? inArray(auditLog.target, references) : undefined,
        email ? eq(auditLog.target, email) : undefined,
        sql`strpos(${auditLog.detail}::text, ${named}) > 0`,
      ),
    )
    .orderBy(asc(auditLog.id));

  // The children of their bookings of several (issue 37), cancelled ones too: what the parent gave.
  const siblings = paymentIds.length > 0 ? await db.select().from(paymentChildren).where(inArray(paymentChildren.paymentId, paymentIds)).orderBy(asc(paymentChildren.position)) : [];
  // The slot each payment holds or held (a cancelled booking's slot is free again, or someone else's now), and each child's seat.
  const slotIds = [...new Set([...paid.map((p) => p.slotId), ...siblings.map((c) => c.slotId)])];
  const paidSlots = slotIds.length > 0 ? await db.select().from(slots).where(inArray(slots.id, slotIds)) : [];
  // Issue 40: the documents uploaded for their bookings (which child and document, name, type, size, time; not the bytes).
  const documents = await documentsOfPayments(db, paymentIds);

  return {
    person: { email, phone },
    summary: summaryOf({ bookings, paid, paidSlots, siblings, waiting, given, mails }),
    bookings: bookings.map(plain),
    // A payment of several children holds each child as given (its payment_children rows, cancelled ones too).
    payments: paid.map(({ holdToken: _key, ...p }) => {
      const own = siblings.filter((c) => c.paymentId === p.id).map(({ paymentId: _payment, ...c }) => plain(c));
      const files = documents.filter((d) => d.paymentId === p.id).map(({ paymentId: _payment, ...d }) => plain(d));
      return plain({ ...p, ...(own.length > 0 && { children: own }), ...(files.length > 0 && { documents: files }) });
    }),
    // Each consent with the notice it names, in the language it was given in: what the parent agreed to.
    consents: given.map((c) => plain({ ...c, noticeText: noticeText(c.noticeVersion, c.language) ?? null })),
    mails: mails.map(plain),
    auditEntries: audit.map(plain),
    waitlistEntries: waiting.map(({ tokenHash: _link, ...w }) => plain(w)),
  };
}

/** A payment's booking state: its refund first, then its booking, then the payment itself. */
function paymentState(p: PaymentRow): PersonBookingState {
  if (p.status === 'refunded' || p.status === 'refund_pending') return p.status;
  if (p.bookingStatus === 'cancelled') return 'cancelled';
  if (p.status === 'completed') return 'paid';
  if (p.status === 'failed') return 'payment_failed';
  if (p.status === 'cancelled') return 'payment_cancelled';
  return 'awaiting_payment';
}

/** Distinct non-empty values, the most recent (last) first. */
const latestFirst = (values: (string | null)[]): string[] => [...new Set(values.filter((v): v is string => Boolean(v)).reverse())];
const iso = (d: Date | null) => d?.toISOString() ?? null;

type Found = {
  bookings: SlotRow[];
  paid: PaymentRow[];
  paidSlots: SlotRow[];
  siblings: PaymentChildRow[];
  waiting: (typeof waitlistEntries.$inferSelect)[];
  given: (typeof consents.$inferSelect)[];
  mails: (typeof mailOutbox.$inferSelect)[];
};

/**
 * The children a booking of several names, joined; a child still booked at another time than the booking's (staff
 * moved them alone) with that time in GMT+8; undefined for a booking of one child.
 */
function childrenOfBooking(siblings: PaymentChildRow[], paymentId: string, slotOf: Map<number, SlotRow>, start: Date): string | undefined {
  const names = siblings
    .filter((c) => c.paymentId === paymentId)
    .map((c) => {
      const seat = c.cancelledAt === null ? slotOf.get(c.slotId) : undefined;
      return seat && seat.startAt.getTime() !== start.getTime() ? `${c.childName} (${inMY(seat.startAt).format('D MMM YYYY, h:mm A')} GMT+8)` : c.childName;
    });
  return names.length > 0 ? names.join(', ') : undefined;
}

/** The records read as a person: each payment is a booking (with the slot it holds or held), and a booked slot no payment stands behind is one too. */
function summaryOf({ bookings, paid, paidSlots, siblings, waiting, given, mails }: Found): PersonSummary {
  const slotOf = new Map(paidSlots.map((s) => [s.id, s]));
  const paidReferences = new Set(paid.map((p) => p.reference));
  const byTime = [...paid.map((p) => ({ at: p.createdAt, payment: p })), ...bookings.filter((b) => !paidReferences.has(b.bookingReference ?? '')).map((b) => ({ at: b.bookedAt ?? b.createdAt, slot: b }))].sort(
    (a, b) => a.at.getTime() - b.at.getTime(),
  );
  const people = [...byTime.map((b) => ('payment' in b ? b.payment! : b.slot!)), ...waiting.map((w) => ({ ...w, visitorName: w.name, visitorEmail: w.email, visitorContactNo: w.phone }))];
  const children = new Map<string, { name: string; year: string | null }>();
  // Every child: the payments' own and each child of a booking of several (issue 37).
  for (const row of [...people, ...siblings]) if (row.childName) children.set(row.childName, { name: row.childName, year: row.childYear ?? children.get(row.childName)?.year ?? null });
  return {
    names: latestFirst(people.map((p) => p.visitorName)),
    emails: latestFirst(people.map((p) => p.visitorEmail)),
    phones: latestFirst(people.map((p) => p.visitorContactNo)),
    children: [...children.values()],
    bookings: byTime.map((b) => {
      if ('payment' in b) {
        const p = b.payment!;
        const slot = slotOf.get(p.slotId)!;
        return {
          reference: p.reference,
          school: p.selectedSchool,
          // A booking of several children names them all (its booked seats carry one each).
          childName: childrenOfBooking(siblings, p.id, slotOf, slot.startAt) ?? p.childName,
          start: slot.startAt.toISOString(),
          end: slot.endAt.toISOString(),
          amountSen: paidAmountOf(p),
          refundSen: p.refundAmountSen,
          state: paymentState(p),
          cancelledAt: iso(p.cancelledAt),
          madeAt: p.createdAt.toISOString(),
        };
      }
      const slot = b.slot!;
      return {
        reference: slot.bookingReference ?? `slot-${slot.id}`,
        school: slot.selectedSchool,
        childName: slot.childName,
        start: slot.startAt.toISOString(),
        end: slot.endAt.toISOString(),
        amountSen: null,
        refundSen: null,
        state: 'booked' as const,
        cancelledAt: null,
        madeAt: b.at.toISOString(),
      };
    }),
    waitlistEntries: waiting.map((w) => ({ school: w.school, fromDate: w.fromDate, toDate: w.toDate, partOfDay: w.partOfDay, state: w.state, joinedAt: w.joinedAt.toISOString() })),
    consents: given.map((c) => ({ noticeVersion: c.noticeVersion, language: c.language, channel: c.channel, givenAt: c.givenAt.toISOString() })),
    mails: mails.map((m) => ({ subject: m.subject, recipient: m.recipient, status: m.status, createdAt: m.createdAt.toISOString(), sentAt: iso(m.sentAt) })),
  };
}

/** The columns that hold a phone number: written as text cells, so a spreadsheet keeps the leading 0. */
const PHONE_COLUMN = /phone|contactNo/i;
const cell = (column: string, value: unknown): CsvValue => {
  if (value == null) return '';
  if (typeof value === 'string' && PHONE_COLUMN.test(column)) return phoneCell(value);
  return typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
};

/**
 * The records as one CSV file: a `record` column (bookings, payments, …), then every field any of them has. Written by
 * the product's one CSV writer (shared-api/csv: the BOM, the formula guard); phone numbers as held, kept as text.
 */
export function personCsv(records: PersonFound): string {
  const lists = ['bookings', 'payments', 'consents', 'mails', 'auditEntries', 'waitlistEntries'] as const;
  const rows = lists.flatMap((list) => records[list].map((row) => ({ record: list, ...row }) as Record<string, unknown>));
  const columns = ['record', ...new Set(rows.flatMap((row) => Object.keys(row).filter((key) => key !== 'record')))];
  return csvFile(
    columns,
    rows.map((row) => columns.map((column) => cell(column, row[column]))),
  );
}
