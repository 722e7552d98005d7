import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DOCUMENT_FILE_FIELD,
  DOCUMENT_MAX_FILE_BYTES,
  DocumentsErrorCode,
  DocumentsMessage,
  ErrorCode,
  bookingReferenceParamSchema,
  documentIdParamSchema,
  documentSlotParamSchema,
  documentsViewSchema,
  envelope,
  manageTokenParamSchema,
  registrationFormBodySchema,
  staffDocumentParamSchema,
  staffDocumentsViewSchema,
  staffMarkBodySchema,
} from 'shared-api/contract';
import { AppError, ok } from '../base/errors';
import { bearerSecurity, errorResponses, publicRoute } from '../base/routes';
import type { IncomingFile } from './service';

const tags = ['documents'];
const viewAnswer = envelope(documentsViewSchema);
const refuse = (status: number, code: DocumentsErrorCode, message: string) => new AppError(status, code as unknown as ErrorCode, message);
const tooLarge = () => refuse(413, DocumentsErrorCode.FILE_TOO_LARGE, DocumentsMessage.tooLarge);
const missing = () => refuse(400, DocumentsErrorCode.FILE_MISSING, DocumentsMessage.missing);
/** A file's bytes (a Buffer: Fastify sends it as it is, unserialised). */
const binary = z.any().describe('binary');
/** A download keeps its own type and never runs as a page: sandboxed, loading nothing, never framed. */
export const DOWNLOAD_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";

/** The one file of a multipart body (field `file`), read whole up to 10 MB: larger, malformed or absent → a clear 4xx. */
async function readFile(request: FastifyRequest): Promise<IncomingFile> {
  if (!request.isMultipart()) throw missing();
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file' && part.fieldname === DOCUMENT_FILE_FIELD) return { bytes: await part.toBuffer(), fileName: part.filename };
      // Any other part is read past and ignored.
      if (part.type === 'file') await part.toBuffer();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (error instanceof AppError) throw error;
    // A body cut short or malformed, or too many parts: the request, not the server, is at fault.
    throw missing();
  }
  throw missing();
}

/** A header-safe name for Content-Disposition: an ASCII fallback and the UTF-8 name (RFC 6266). */
const disposition = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * The parent's documents through the manage link (the token is the only key: unknown ones are guess-limited and
 * answered without data) and the staff's view, download and marks. Multipart bodies are read only here.
 */
export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  // One file of at most 10 MB, a few parts; a larger file is cut off at the limit and refused (413), never buffered whole.
  await app.register(multipart, { limits: { fileSize: DOCUMENT_MAX_FILE_BYTES, files: 1, parts: 5, fields: 4, fieldSize: 1024 }, throwFileSizeLimit: true });

  app.get(
    '/api/booking/manage/:token/documents',
    {
      schema: {
        tags,
        operationId: 'getBookingDocuments',
        security: publicRoute,
        summary: "The visit's checklist per child (each document uploaded, to bring or not needed), the registration form and the limits",
        params: manageTokenParamSchema,
        response: { 200: viewAnswer, ...errorResponses(404, 410, 429) },
      },
    },
    async (request) => ok(await app.documents.parentView(request.params.token, request.ip), 'Documents'),
  );

  app.put(
    '/api/booking/manage/:token/documents/:position/:kind',
    {
      schema: {
        tags,
        operationId: 'uploadBookingDocument',
        security: publicRoute,
        summary:
          "Upload (or replace) a child's document: multipart/form-data with one field `file`, a JPEG, PNG or PDF by its content, at most 10 MB (40 MB a booking). Images are stored re-encoded without metadata; PDFs as they came. 400 FILE_TYPE_NOT_ALLOWED / FILE_UNREADABLE / FILE_MISSING, 413 FILE_TOO_LARGE / BOOKING_FILES_TOO_LARGE, 409 DOCUMENTS_CLOSED after the visit's start, 429 past 20 uploads a link or 200 a network in 10 minutes",
        consumes: ['multipart/form-data'],
        params: documentSlotParamSchema,
        response: { 200: viewAnswer, ...errorResponses(404, 409, 410, 429) },
      },
    },
    async (request) => {
      const { token, position, kind } = request.params;
      const opened = await app.documents.beforeUpload(token, position, request.ip);
      const file = await readFile(request);
      return ok(await app.documents.upload(opened, position, kind, file), 'Document uploaded');
    },
  );

  app.delete(
    '/api/booking/manage/:token/documents/:position/:kind',
    {
      schema: {
        tags,
        operationId: 'removeBookingDocument',
        security: publicRoute,
        summary: "Remove a child's document (until the visit's start; 409 DOCUMENTS_CLOSED after)",
        params: documentSlotParamSchema,
        response: { 200: viewAnswer, ...errorResponses(404, 409, 410, 429) },
      },
    },
    async (request) => ok(await app.documents.remove(request.params.token, request.params.position, request.params.kind, request.ip), 'Document removed'),
  );

  app.post(
    '/api/booking/manage/:token/registration-form',
    {
      schema: {
        tags,
        operationId: 'tickRegistrationForm',
        security: publicRoute,
        summary: "The parent ticks the school's registration form as done (or not)",
        params: manageTokenParamSchema,
        body: registrationFormBodySchema,
        response: { 200: viewAnswer, ...errorResponses(404, 409, 410, 429) },
      },
    },
    async (request) => ok(await app.documents.tickRegistrationForm(request.params.token, request.body.done, request.ip), 'Registration form'),
  );

  // ---- Staff ----

  app.get(
    '/staff/bookings/:reference/documents',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'getStaffBookingDocuments',
        summary: "A paid booking's documents per child, with who uploaded and who marked each",
        security: bearerSecurity,
        params: bookingReferenceParamSchema,
        response: { 200: envelope(staffDocumentsViewSchema), ...errorResponses(401, 404) },
      },
    },
    async (request) => ok(await app.documents.staffView(request.params.reference), 'Documents'),
  );

  app.get(
    '/staff/documents/:id/download',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'downloadDocument',
        summary: "A child's document file, as an attachment (never shown inline); each download is audited as a view of personal data",
        security: bearerSecurity,
        params: documentIdParamSchema,
        response: {
          200: {
            description: 'The file itself, not the {success, data} envelope: its own type, Content-Disposition: attachment, sandboxed',
            content: { 'image/jpeg': { schema: binary }, 'image/png': { schema: binary }, 'application/pdf': { schema: binary } },
          },
          ...errorResponses(401, 404),
        },
      },
    },
    async (request, reply) => {
      const { bytes, row } = await app.documents.download(request.params.id, request.staff!, request.ip);
      return reply
        .type(row.contentType)
        .header('content-disposition', disposition(row.originalName))
        .header('content-security-policy', DOWNLOAD_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(bytes);
    },
  );

  app.post(
    '/staff/bookings/:reference/documents/:position/:kind/mark',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'markBookingDocument',
        summary: "Mark a child's document checked or seen on paper (null clears the mark); audited",
        security: bearerSecurity,
        params: staffDocumentParamSchema,
        body: staffMarkBodySchema,
        response: { 200: envelope(staffDocumentsViewSchema), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { reference, position, kind } = request.params;
      return ok(await app.documents.mark(reference, position, kind, request.body.mark, request.staff!, request.ip), 'Document marked');
    },
  );
};
