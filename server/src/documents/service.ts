import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import {
  DOCUMENT_KINDS,
  DOCUMENT_LIMITS,
  DOCUMENT_MAX_BOOKING_BYTES,
  DocumentsErrorCode,
  DocumentsMessage,
  ErrorCode,
  ManageErrorCode,
  ManageMessage,
  brand,
  requiredDocumentKinds,
  type DocumentKind,
  type DocumentsView,
  type StaffDocumentsView,
  type StaffMark,
} from 'shared-api/contract';
import { auditBy, recordAudit } from '../audit';
import { clientNetwork } from '../base/client-address';
import { sha256 } from '../base/crypto';
import type { Db, DbOrTx } from '../base/db/connection';
import { AppError, tooManyRequests } from '../base/errors';
import { hitCounter, refuseUnknownToken } from '../limits';
import { MANAGE_GUESS_LIMIT, childrenOf, paymentForToken, payments, seatsOf, type PaymentRow } from '../payments';
import { findSlot } from '../slots';
import { acceptContent, safeFileName } from './content';
import type { DocumentStore } from './store';
import { documentFiles, documentMarks, registrationFormTicks, type DocumentFileRow } from './tables';

/** Uploads one manage link may make in UPLOAD_WINDOW_SECONDS (a parent with four children and four documents each, and some retries). */
export const UPLOADS_PER_LINK = 20;
/** Uploads one client network may make in the window: generous, since many parents share one carrier address. */
export const UPLOADS_PER_NETWORK = 200;
export const UPLOAD_WINDOW_SECONDS = 600;

const fail = (status: number, code: DocumentsErrorCode | ManageErrorCode, message: string) => new AppError(status, code as unknown as ErrorCode, message);
const invalidLink = () => fail(404, ManageErrorCode.MANAGE_LINK_INVALID, ManageMessage.invalidLink);
const expiredLink = () => fail(410, ManageErrorCode.MANAGE_LINK_EXPIRED, ManageMessage.expiredLink);
const closed = () => fail(409, DocumentsErrorCode.DOCUMENTS_CLOSED, DocumentsMessage.closed);
const noChild = () => fail(404, DocumentsErrorCode.DOCUMENT_NOT_FOUND, DocumentsMessage.notFound);
const noFile = () => fail(404, DocumentsErrorCode.DOCUMENT_NOT_FOUND, DocumentsMessage.fileNotFound);
const bookingNotFound = () => fail(404, DocumentsErrorCode.DOCUMENT_NOT_FOUND, 'No booking paid online has this reference.');

/** A child of the booking as documents see it: their place, name, school. */
type Child = { position: number; name: string; school: string };
/** A booking opened for its documents: the payment, its children, and the visit's first start and last end. */
type Opened = { payment: PaymentRow; children: Child[]; start: Date; end: Date };

/** A file read from the request, or why not (the route reads the multipart body; see routes.ts). */
export type IncomingFile = { bytes: Buffer; fileName: string | undefined };

export type DocumentsServiceOptions = { db: Db; store: DocumentStore; log: { warn: (obj: object, msg: string) => void }; now?: () => Date };

/**
 * The visit's documents: the parent's view and changes through the manage link, the staff's view, download and marks.
 * A file's bytes go to the store under a random key BEFORE its row commits (a row never names a missing object); a
 * refused or failed upload deletes what it put. A replaced or removed file's object is deleted after the commit, then
 * its row; a delete that fails leaves the row (removed_at set) for the retention job to finish.
 */
export class DocumentsService {
  private readonly db: Db;
  private readonly store: DocumentStore;
  private readonly now: () => Date;

  constructor(private readonly options: DocumentsServiceOptions) {
    this.db = options.db;
    this.store = options.store;
    this.now = options.now ?? (() => new Date());
  }

  // ---- Opening a booking ----

  /** The booking a manage link opens; an unknown or malformed token counts toward the guessing brake (404, then 429). */
  private async byToken(token: string, ip: string): Promise<Opened> {
    const payment = await paymentForToken(this.db, token);
    if (!payment || !payment.bookingStatus) return refuseUnknownToken(this.db, MANAGE_GUESS_LIMIT, ip, invalidLink);
    const opened = await this.open(this.db, payment);
    // As the manage link itself: valid until the visit's end.
    if (opened.end.getTime() <= this.now().getTime()) throw expiredLink();
    return opened;
  }

  private async byReference(db: DbOrTx, reference: string): Promise<Opened> {
    const [payment] = await db.select().from(payments).where(eq(payments.reference, reference));
    if (!payment || !payment.bookingStatus) throw bookingNotFound();
    return this.open(db, payment);
  }

  /** Its children (a booking of one child: the payment's own, at place 1), and the visit's first start and last end. */
  private async open(db: DbOrTx, payment: PaymentRow): Promise<Opened> {
    const rows = await childrenOf(db, payment.id);
    const slot = (await findSlot(db, payment.slotId))!;
    if (rows.length === 0) return { payment, children: [{ position: 1, name: payment.childName ?? '', school: payment.selectedSchool }], start: slot.startAt, end: slot.endAt };
    // A cancelled child has no documents to bring; a cancelled booking still shows every child (read only).
    const booked = payment.bookingStatus === 'cancelled' ? rows : rows.filter((c) => c.cancelledAt === null);
    const seats = [...(await seatsOf(db, booked)).values()];
    const starts = seats.length ? seats.map((s) => s.startAt.getTime()) : [slot.startAt.getTime()];
    const ends = seats.length ? seats.map((s) => s.endAt.getTime()) : [slot.endAt.getTime()];
    return {
      payment,
      children: booked.map((c) => ({ position: c.position, name: c.childName, school: c.selectedSchool })),
      start: new Date(Math.min(...starts)),
      end: new Date(Math.max(...ends)),
    };
  }

  /** Open until the visit's (earliest child's) start, and never on a cancelled booking. */
  private editable = (o: Opened) => o.payment.bookingStatus === 'booked' && this.now().getTime() < o.start.getTime();

  private childAt(o: Opened, position: number): Child {
    const child = o.children.find((c) => c.position === position);
    if (!child) throw noChild();
    return child;
  }

  // ---- Views ----

  private async staffShape(db: DbOrTx, o: Opened): Promise<StaffDocumentsView> {
    const [files, marks, [tick]] = await Promise.all([
      db.select().from(documentFiles).where(and(eq(documentFiles.paymentId, o.payment.id), isNull(documentFiles.removedAt))),
      db.select().from(documentMarks).where(eq(documentMarks.paymentId, o.payment.id)),
      db.select().from(registrationFormTicks).where(eq(registrationFormTicks.paymentId, o.payment.id)),
    ]);
    return {
      reference: o.payment.reference,
      children: o.children.map((child) => {
        const required = new Set(requiredDocumentKinds(child.school));
        return {
          position: child.position,
          name: child.name,
          items: DOCUMENT_KINDS.map((kind) => {
            const file = files.find((f) => f.childPosition === child.position && f.kind === kind);
            const mark = marks.find((m) => m.childPosition === child.position && m.kind === kind);
            return {
              kind,
              state: file ? ('uploaded' as const) : required.has(kind) ? ('toBring' as const) : ('notNeeded' as const),
              file: file ? { id: file.id, name: file.originalName, type: file.contentType, sizeBytes: file.sizeBytes, uploadedAt: file.uploadedAt.toISOString(), uploadedBy: file.uploadedBy } : null,
              staffMark: mark?.mark ?? null,
              markedBy: mark?.markedBy ?? null,
              markedAt: mark?.markedAt.toISOString() ?? null,
            };
          }),
        };
      }),
      registrationForm: { url: brand.registrationFormUrl, doneAt: tick?.doneAt.toISOString() ?? null },
      limits: { ...DOCUMENT_LIMITS },
      editable: this.editable(o),
    };
  }

  /** What the parent sees: the staff's view without who uploaded or marked (the contract's zod drops those keys). */
  private async parentShape(db: DbOrTx, o: Opened): Promise<DocumentsView> {
    const { reference: _reference, ...view } = await this.staffShape(db, o);
    return {
      ...view,
      children: view.children.map((c) => ({
        ...c,
        items: c.items.map(({ markedBy: _by, markedAt: _at, file, ...item }) => ({ ...item, file: file && { id: file.id, name: file.name, type: file.type, sizeBytes: file.sizeBytes, uploadedAt: file.uploadedAt } })),
      })),
    };
  }

  async parentView(token: string, ip: string): Promise<DocumentsView> {
    return this.parentShape(this.db, await this.byToken(token, ip));
  }

  async staffView(reference: string): Promise<StaffDocumentsView> {
    return this.staffShape(this.db, await this.byReference(this.db, reference));
  }

  // ---- The parent's changes ----

  /**
   * Checks an upload before its body is read: the link (404/410), the rate limits (429, counted in the database per
   * link and per client network, refused attempts too), the child (404) and the time (409). Returns the booking.
   */
  async beforeUpload(token: string, position: number, ip: string): Promise<Opened> {
    const o = await this.byToken(token, ip);
    const perLink = await hitCounter(this.db, `documents-upload-link:${o.payment.id}`, UPLOAD_WINDOW_SECONDS);
    if (perLink.hits > UPLOADS_PER_LINK) throw tooManyRequests(DocumentsMessage.tooManyUploads, perLink.retryAfterSeconds);
    const perNetwork = await hitCounter(this.db, `documents-upload-net:${sha256(clientNetwork(ip))}`, UPLOAD_WINDOW_SECONDS);
    if (perNetwork.hits > UPLOADS_PER_NETWORK) throw tooManyRequests(DocumentsMessage.tooManyUploads, perNetwork.retryAfterSeconds);
    this.childAt(o, position);
    if (!this.editable(o)) throw closed();
    return o;
  }

  /** Stores the file as the child's document of that kind (replacing the one there), within the booking's 40 MB. */
  async upload(o: Opened, position: number, kind: DocumentKind, incoming: IncomingFile): Promise<DocumentsView> {
    const accepted = await acceptContent(incoming.bytes);
    const key = randomBytes(32).toString('hex');
    await this.store.put(key, accepted.bytes, accepted.type);
    let replaced: DocumentFileRow[];
    try {
      replaced = await this.db.transaction(async (tx) => {
        const locked = await this.lockEditable(tx, o);
        const live = await tx.select().from(documentFiles).where(and(eq(documentFiles.paymentId, locked.payment.id), isNull(documentFiles.removedAt)));
        const same = live.filter((f) => f.childPosition === position && f.kind === kind);
        const others = live.filter((f) => !same.includes(f)).reduce((sum, f) => sum + f.sizeBytes, 0);
        if (others + accepted.bytes.length > DOCUMENT_MAX_BOOKING_BYTES) throw fail(413, DocumentsErrorCode.BOOKING_FILES_TOO_LARGE, DocumentsMessage.bookingTooLarge);
        if (same.length) await tx.update(documentFiles).set({ removedAt: sql`now()` }).where(inArray(documentFiles.id, same.map((f) => f.id)));
        await tx.insert(documentFiles).values({
          id: randomUUID(),
          paymentId: locked.payment.id,
          childPosition: position,
          kind,
          objectKey: key,
          contentType: accepted.type,
          sizeBytes: accepted.bytes.length,
          sha256: accepted.sha256,
          originalName: safeFileName(incoming.fileName, accepted.type, kind),
          uploadedBy: 'parent',
        });
        return same;
      });
    } catch (error) {
      await this.store.delete(key).catch((err: unknown) => this.options.log.warn({ err }, 'a refused upload\'s object could not be deleted'));
      throw error;
    }
    await this.purge(replaced);
    return this.parentShape(this.db, await this.open(this.db, o.payment));
  }

  /** Removes the child's document of that kind (nothing there: the view as it is). */
  async remove(token: string, position: number, kind: DocumentKind, ip: string): Promise<DocumentsView> {
    const o = await this.byToken(token, ip);
    this.childAt(o, position);
    const removed = await this.db.transaction(async (tx) => {
      const locked = await this.lockEditable(tx, o);
      return tx
        .update(documentFiles)
        .set({ removedAt: sql`now()` })
        .where(and(eq(documentFiles.paymentId, locked.payment.id), eq(documentFiles.childPosition, position), eq(documentFiles.kind, kind), isNull(documentFiles.removedAt)))
        .returning();
    });
    await this.purge(removed);
    return this.parentShape(this.db, await this.open(this.db, o.payment));
  }

  /** The parent ticks (or unticks) the registration form as done. */
  async tickRegistrationForm(token: string, done: boolean, ip: string): Promise<DocumentsView> {
    const o = await this.byToken(token, ip);
    await this.db.transaction(async (tx) => {
      const locked = await this.lockEditable(tx, o);
      if (done) await tx.insert(registrationFormTicks).values({ paymentId: locked.payment.id }).onConflictDoNothing();
      else await tx.delete(registrationFormTicks).where(eq(registrationFormTicks.paymentId, locked.payment.id));
    });
    return this.parentShape(this.db, await this.open(this.db, o.payment));
  }

  /** The payment row locked (changes of one booking take turns), still open for changes now. */
  private async lockEditable(tx: DbOrTx, o: Opened): Promise<Opened> {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, o.payment.id)).for('update');
    const locked = await this.open(tx, payment);
    if (!this.editable(locked)) throw closed();
    return locked;
  }

  /** Deletes replaced or removed files from the store, then their rows; a failed delete is left to the retention job. */
  private async purge(rows: DocumentFileRow[]): Promise<void> {
    for (const row of rows) {
      try {
        await this.store.delete(row.objectKey);
        await this.db.delete(documentFiles).where(eq(documentFiles.id, row.id));
      } catch (err) {
        this.options.log.warn({ err, file: row.id }, 'a removed document could not be deleted yet (retention retries)');
      }
    }
  }

  // ---- Staff ----

  /** A file for a staff member, its download recorded in the audit trail as a view of the child's personal data. */
  async download(id: string, staff: { id: number; email: string }, ip: string): Promise<{ bytes: Buffer; row: DocumentFileRow }> {
    const [row] = await this.db.select().from(documentFiles).where(and(eq(documentFiles.id, id), isNull(documentFiles.removedAt)));
    if (!row) throw noFile();
    const bytes = await this.store.get(row.objectKey);
    if (!bytes) throw noFile();
    const [payment] = await this.db.select({ reference: payments.reference }).from(payments).where(eq(payments.id, row.paymentId));
    await recordAudit(this.db, { ...auditBy(staff, ip), action: 'document_downloaded', target: payment.reference, detail: { file: row.id, child: row.childPosition, kind: row.kind } });
    return { bytes, row };
  }

  /** Staff mark a child's document checked or seen on paper (null clears it), audited with the change. */
  async mark(reference: string, position: number, kind: DocumentKind, mark: StaffMark | null, staff: { id: number; email: string }, ip: string): Promise<StaffDocumentsView> {
    return this.db.transaction(async (tx) => {
      const o = await this.byReference(tx, reference);
      this.childAt(o, position);
      const where = and(eq(documentMarks.paymentId, o.payment.id), eq(documentMarks.childPosition, position), eq(documentMarks.kind, kind));
      if (mark === null) await tx.delete(documentMarks).where(where);
      else
        await tx
          .insert(documentMarks)
          .values({ paymentId: o.payment.id, childPosition: position, kind, mark, markedBy: staff.email })
          .onConflictDoUpdate({ target: [documentMarks.paymentId, documentMarks.childPosition, documentMarks.kind], set: { mark, markedBy: staff.email, markedAt: sql`now()` } });
      await recordAudit(tx, { ...auditBy(staff, ip), action: 'document_marked', target: reference, detail: { child: position, kind, mark } });
      return this.staffShape(tx, o);
    });
  }
}

// ---- Retention (privacy/retention.ts) and the PDPA export (privacy/person.ts) ----

/**
 * Deletes the files of these payments from the store, then their rows (and the marks and ticks), plus any removed file a
 * change could not delete before. A store failure leaves that row for the next run. Returns the files deleted.
 */
export async function deleteDocumentsOf(db: DbOrTx, store: DocumentStore, paymentIds: string[]): Promise<number> {
  const rows = await db
    .select()
    .from(documentFiles)
    .where(paymentIds.length ? or(inArray(documentFiles.paymentId, paymentIds), isNotNull(documentFiles.removedAt)) : isNotNull(documentFiles.removedAt));
  let deleted = 0;
  for (const row of rows) {
    try {
      await store.delete(row.objectKey);
    } catch {
      continue;
    }
    await db.delete(documentFiles).where(eq(documentFiles.id, row.id));
    deleted++;
  }
  if (paymentIds.length) {
    await db.delete(documentMarks).where(inArray(documentMarks.paymentId, paymentIds));
    await db.delete(registrationFormTicks).where(inArray(registrationFormTicks.paymentId, paymentIds));
  }
  return deleted;
}

/** A person's documents for the PDPA export: per payment, which child, which document, the file's name, type, size and time. */
export async function documentsOfPayments(db: DbOrTx, paymentIds: string[]) {
  if (paymentIds.length === 0) return [];
  return db
    .select({ paymentId: documentFiles.paymentId, child: documentFiles.childPosition, kind: documentFiles.kind, name: documentFiles.originalName, type: documentFiles.contentType, sizeBytes: documentFiles.sizeBytes, sha256: documentFiles.sha256, uploadedAt: documentFiles.uploadedAt })
    .from(documentFiles)
    .where(and(inArray(documentFiles.paymentId, paymentIds), isNull(documentFiles.removedAt)))
    .orderBy(documentFiles.paymentId, documentFiles.childPosition, documentFiles.kind);
}
