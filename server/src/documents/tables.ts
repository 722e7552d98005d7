import { sql } from 'drizzle-orm';
import { integer, pgTable, primaryKey, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DOCUMENT_FILE_TYPES, DOCUMENT_KINDS } from 'shared-api/contract';
import { tz } from '../base/db/columns';
import { payments } from '../payments';

// Mirrors migrations/0040_documents.sql (issue 40).

/** A document's file: its bytes are in the object store under `objectKey` (random); the row says whose and what it is. */
export const documentFiles = pgTable(
  'document_files',
  {
    id: uuid('id').primaryKey(),
    paymentId: text('payment_id').notNull().references(() => payments.id),
    childPosition: smallint('child_position').notNull(),
    kind: text('kind', { enum: DOCUMENT_KINDS }).notNull(),
    objectKey: text('object_key').notNull().unique(),
    contentType: text('content_type', { enum: DOCUMENT_FILE_TYPES }).notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    originalName: text('original_name').notNull(),
    uploadedBy: text('uploaded_by').notNull(),
    uploadedAt: tz('uploaded_at').notNull().defaultNow(),
    removedAt: tz('removed_at'),
  },
  (t) => [uniqueIndex('document_files_live_key').on(t.paymentId, t.childPosition, t.kind).where(sql`removed_at IS NULL`)],
);
export type DocumentFileRow = typeof documentFiles.$inferSelect;

/** Staff's mark on a document ('checked' the file, or 'seenOnPaper' at the desk). */
export const documentMarks = pgTable(
  'document_marks',
  {
    paymentId: text('payment_id').notNull().references(() => payments.id),
    childPosition: smallint('child_position').notNull(),
    kind: text('kind', { enum: DOCUMENT_KINDS }).notNull(),
    mark: text('mark', { enum: ['checked', 'seenOnPaper'] }).notNull(),
    markedBy: text('marked_by').notNull(),
    markedAt: tz('marked_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.paymentId, t.childPosition, t.kind] })],
);

/** The parent ticked the registration form as done. */
export const registrationFormTicks = pgTable('registration_form_ticks', {
  paymentId: text('payment_id').primaryKey().references(() => payments.id),
  doneAt: tz('done_at').notNull().defaultNow(),
});
