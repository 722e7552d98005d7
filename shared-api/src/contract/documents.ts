// Issue 40: the visit's documents, uploaded ahead through the manage link, and what staff see and mark of them.
// One contract for the server's routes, the manage page's checklist (booking-remote) and the staff's visit (admin-remote).
import { z } from 'zod';
import brandConfig from '../../../brand.config.json';
import { CHECKOUT_MAX_CHILDREN } from './constants';

/** The spec's four documents, in WHAT_TO_BRING's order (what-to-bring.ts): `whatToBring.<index>` names each in the catalogues. */
export const DOCUMENT_KINDS = ['guardianId', 'birthCertificate', 'immunisation', 'academicRecords'] as const;
export const documentKindSchema = z.enum(DOCUMENT_KINDS);
export type DocumentKind = z.infer<typeof documentKindSchema>;

/** The file types accepted, identified by their content (never by their name): a phone camera's JPEG, a PNG, a PDF. */
export const DOCUMENT_FILE_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export const documentFileTypeSchema = z.enum(DOCUMENT_FILE_TYPES);
export type DocumentFileType = z.infer<typeof documentFileTypeSchema>;

/** At most 10 MB a file and 40 MB a booking (images counted as stored, after re-encoding). */
export const DOCUMENT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_MAX_BOOKING_BYTES = 40 * 1024 * 1024;

// ---- Which documents a school asks for: `documents` in brand.config.json ----
/** `requiredBySchool[school]`: the kinds that school asks for; a school not named asks `default`'s. A kind not asked is "not needed". */
export const documentsSettingsSchema = z.object({
  requiredBySchool: z.record(z.string(), z.array(documentKindSchema)).default({}),
  default: z.array(documentKindSchema).default([...DOCUMENT_KINDS]),
});
export type DocumentsSettings = z.infer<typeof documentsSettingsSchema>;
/** Read (and validated) once: a wrong kind in brand.config.json stops the start, it is not silently dropped. */
export const documentsSettings: DocumentsSettings = documentsSettingsSchema.parse((brandConfig as { documents?: unknown }).documents ?? {});
/** The kinds a child applying to `school` is asked for, in DOCUMENT_KINDS' order. */
export const requiredDocumentKinds = (school: string, settings: DocumentsSettings = documentsSettings): DocumentKind[] => {
  const asked = new Set(settings.requiredBySchool[school] ?? settings.default);
  return DOCUMENT_KINDS.filter((k) => asked.has(k));
};

// ---- The parent's view (GET /api/booking/manage/:token/documents; the answer of every change too) ----
/** 'uploaded': a file is in; 'toBring': asked for, not uploaded (bring it on the day); 'notNeeded': the school does not ask for it. */
export const documentStateSchema = z.enum(['uploaded', 'toBring', 'notNeeded']);
export type DocumentState = z.infer<typeof documentStateSchema>;
/** What staff noted: they looked at the uploaded file ('checked'), or saw the paper at the desk ('seenOnPaper'). */
export const staffMarkSchema = z.enum(['checked', 'seenOnPaper']);
export type StaffMark = z.infer<typeof staffMarkSchema>;

export const documentFileSchema = z.object({
  id: z.string(),
  /** The file's name as uploaded (sanitised), for the parent to recognise it. */
  name: z.string(),
  type: documentFileTypeSchema,
  /** As stored (an image after re-encoding). */
  sizeBytes: z.number().int().min(0),
  /** ISO instant (UTC); pages show it in GMT+8. */
  uploadedAt: z.string(),
});
export type DocumentFile = z.infer<typeof documentFileSchema>;

export const documentItemSchema = z.object({
  kind: documentKindSchema,
  state: documentStateSchema,
  file: documentFileSchema.nullable(),
  staffMark: staffMarkSchema.nullable(),
});
export type DocumentItem = z.infer<typeof documentItemSchema>;

/** A child of the booking by its place in it (1-based; a booking of one child has only 1). */
export const documentChildPositionSchema = z.number().int().min(1).max(CHECKOUT_MAX_CHILDREN);
export const documentChildSchema = z.object({
  position: documentChildPositionSchema,
  /** The child's name as the parent gave it ('' on an older booking that has none). */
  name: z.string(),
  items: z.array(documentItemSchema),
});
export type DocumentChild = z.infer<typeof documentChildSchema>;

export const documentLimitsSchema = z.object({ maxFileBytes: z.number().int(), maxBookingBytes: z.number().int() });
export const DOCUMENT_LIMITS = { maxFileBytes: DOCUMENT_MAX_FILE_BYTES, maxBookingBytes: DOCUMENT_MAX_BOOKING_BYTES } as const;

export const documentsViewSchema = z.object({
  children: z.array(documentChildSchema),
  /** The school's registration form (brand.config.json's registrationFormUrl) and when the parent ticked it done (ISO), or null. */
  registrationForm: z.object({ url: z.string(), doneAt: z.string().nullable() }),
  limits: documentLimitsSchema,
  /** Uploads, replacements, removals and the tick are open until the visit's start (the earliest child's), and never on a cancelled booking. */
  editable: z.boolean(),
});
export type DocumentsView = z.infer<typeof documentsViewSchema>;

/** PUT / DELETE /api/booking/manage/:token/documents/:position/:kind (PUT: multipart/form-data, one field `file`). */
export const documentSlotParamSchema = z.object({
  token: z.string().max(200),
  position: z.coerce.number().int().min(1).max(CHECKOUT_MAX_CHILDREN),
  kind: documentKindSchema,
});
/** The multipart field carrying the file. */
export const DOCUMENT_FILE_FIELD = 'file';

/** POST /api/booking/manage/:token/registration-form */
export const registrationFormBodySchema = z.object({ done: z.boolean() });
export type RegistrationFormBody = z.infer<typeof registrationFormBodySchema>;

// ---- Staff ----
/** A file as staff see it: who put it there and when (the parent, through the manage link). */
export const staffDocumentFileSchema = documentFileSchema.extend({ uploadedBy: z.string() });
export const staffDocumentItemSchema = documentItemSchema.extend({
  file: staffDocumentFileSchema.nullable(),
  /** Who marked it and when (ISO), with the mark. */
  markedBy: z.string().nullable(),
  markedAt: z.string().nullable(),
});
export const staffDocumentsViewSchema = documentsViewSchema.extend({
  reference: z.string(),
  children: z.array(documentChildSchema.extend({ items: z.array(staffDocumentItemSchema) })),
});
export type StaffDocumentsView = z.infer<typeof staffDocumentsViewSchema>;

/** GET /staff/bookings/:reference/documents (the reference param is manage.ts' bookingReferenceParamSchema). */
/** GET /staff/documents/:id/download: the file itself, as an attachment. */
export const documentIdParamSchema = z.object({ id: z.string().uuid() });
/** POST /staff/bookings/:reference/documents/:position/:kind/mark */
export const staffDocumentParamSchema = z.object({
  reference: z.string().min(1).max(100),
  position: z.coerce.number().int().min(1).max(CHECKOUT_MAX_CHILDREN),
  kind: documentKindSchema,
});
export const staffMarkBodySchema = z.object({ mark: staffMarkSchema.nullable() });
export type StaffMarkBody = z.infer<typeof staffMarkBodySchema>;

/** The checklist of one child as the staff's Today view and the reminder show it: "2 of 4 in", and what is missing. */
export type ChildChecklist = { position: number; name: string; required: number; inCount: number; missing: DocumentKind[] };
export type BookingChecklist = { children: ChildChecklist[] };

// ---- Words ----
export const DocumentsErrorCode = {
  /** 400: not a JPEG, PNG or PDF by its content (whatever its name says). */
  FILE_TYPE_NOT_ALLOWED: 'FILE_TYPE_NOT_ALLOWED',
  /** 413: over 10 MB, or an image of more than 50 megapixels. */
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  /** 413: the booking's files would pass 40 MB. */
  BOOKING_FILES_TOO_LARGE: 'BOOKING_FILES_TOO_LARGE',
  /** 400: a truncated or corrupt image or PDF. */
  FILE_UNREADABLE: 'FILE_UNREADABLE',
  /** 400: the request carried no file. */
  FILE_MISSING: 'FILE_MISSING',
  /** 409: the visit has started (or the booking is cancelled): documents can no longer be changed online. */
  DOCUMENTS_CLOSED: 'DOCUMENTS_CLOSED',
  /** 404: this booking has no child at that place, or no such file. */
  DOCUMENT_NOT_FOUND: 'DOCUMENT_NOT_FOUND',
} as const;
export type DocumentsErrorCode = (typeof DocumentsErrorCode)[keyof typeof DocumentsErrorCode];

export const DocumentsMessage = {
  typeNotAllowed: 'Only JPEG, PNG or PDF files can be uploaded.',
  tooLarge: 'This file is larger than 10 MB. Please upload a smaller photo or PDF.',
  tooManyPixels: 'This image is too large (over 50 megapixels). Please upload a smaller photo.',
  bookingTooLarge: "This booking's files would be larger than 40 MB in all. Please remove a file or upload a smaller one.",
  unreadable: 'This file could not be read (it may be damaged or incomplete). Please take the photo again or save the PDF again.',
  missing: 'Please choose a file to upload.',
  closed: 'Documents can no longer be changed online: the visit has started or the booking is cancelled. Please bring them on the day.',
  notFound: 'This booking has no child at that place.',
  fileNotFound: 'This file is no longer there.',
  tooManyUploads: 'Too many uploads. Please wait a few minutes and try again.',
} as const;
