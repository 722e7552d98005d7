import { ErrorCode, formatInMY, type Locale } from 'shared-api';
import { DOCUMENT_KINDS, DocumentsErrorCode, type DocumentKind, type DocumentsView } from 'shared-api/documents';
import type { Translate } from 'shared-ui';
import { failureOf, refusalId } from '../../../../lib/apiError';
import { WHAT_TO_BRING_IDS } from '../../../../lib/contract-catalog';
import type { DocumentsTextId } from '../i18n';
import type en from '../locales/en.json';

export type DocumentsWords = { t: Translate<typeof en>; locale: Locale };

/** A document's name: the what-to-bring item of the same place (DOCUMENT_KINDS follows WHAT_TO_BRING's order). */
export const documentTextId = (kind: DocumentKind) => WHAT_TO_BRING_IDS[DOCUMENT_KINDS.indexOf(kind)];

const MB = 1024 * 1024;
/** Whole megabytes, as the limits are said ("10 MB"). */
export const megabytes = (bytes: number) => Math.round(bytes / MB);

/** "350 KB", "2.4 MB". */
export function sizeText(bytes: number, { t }: DocumentsWords): string {
  if (bytes < MB) return t('size.kb', { size: String(Math.max(1, Math.round(bytes / 1024))) });
  return t('size.mb', { size: (bytes / MB).toFixed(1) });
}

/** "26 Nov, 9:05 AM (GMT+8)": an upload is days old at most, so the year would say nothing. */
export const momentText = (iso: string, { t, locale }: DocumentsWords) =>
  t('moment', { day: formatInMY(iso, 'dayMonth', locale), time: formatInMY(iso, 'time', locale) });

/** The documents routes' refusals by code: each said in the page's language (never the server's English words). */
const CODE_TEXTS: Readonly<Record<string, DocumentsTextId>> = {
  [DocumentsErrorCode.FILE_TYPE_NOT_ALLOWED]: 'error.typeNotAllowed',
  [DocumentsErrorCode.FILE_TOO_LARGE]: 'error.tooLarge',
  [DocumentsErrorCode.BOOKING_FILES_TOO_LARGE]: 'error.bookingTooLarge',
  [DocumentsErrorCode.FILE_UNREADABLE]: 'error.unreadable',
  [DocumentsErrorCode.FILE_MISSING]: 'error.missing',
  [DocumentsErrorCode.DOCUMENTS_CLOSED]: 'error.closed',
  [DocumentsErrorCode.DOCUMENT_NOT_FOUND]: 'error.notFound',
  [ErrorCode.RATE_LIMITED]: 'error.tooMany',
};

/** A refused or failed change in the page's language: the code's text, a 429's, else `fallback` (no answer, an unknown code). */
export function refusalText(error: unknown, limits: DocumentsView['limits'], { t }: DocumentsWords, fallback: DocumentsTextId): string {
  const failure = failureOf(error);
  const id = refusalId(failure, CODE_TEXTS) ?? (failure.status === 429 ? 'error.tooMany' : fallback);
  return t(id, { maxMb: megabytes(id === 'error.bookingTooLarge' ? limits.maxBookingBytes : limits.maxFileBytes) });
}
