import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { DocumentsErrorCode, DocumentsMessage, ErrorCode, type DocumentFileType, type DocumentKind } from 'shared-api/contract';
import { AppError } from '../base/errors';

// What a file is, from its bytes (never its name or the browser's type), and what is stored of it.

/** Images past this many pixels are refused before they are decoded (a small file can inflate to gigabytes). */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** A PDF's `%%EOF` must be in its last kilobyte (a truncated upload has none there). */
const PDF_TAIL_BYTES = 1024;

const refuse = (status: number, code: DocumentsErrorCode, message: string) => new AppError(status, code as unknown as ErrorCode, message);
export const typeNotAllowed = () => refuse(400, DocumentsErrorCode.FILE_TYPE_NOT_ALLOWED, DocumentsMessage.typeNotAllowed);
export const unreadable = () => refuse(400, DocumentsErrorCode.FILE_UNREADABLE, DocumentsMessage.unreadable);

const startsWith = (bytes: Buffer, signature: number[]) => bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);
const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PDF = [...Buffer.from('%PDF-')];

/** The type the bytes say they are, or undefined for anything else (SVG, GIF, WebP, HEIC, an executable, text…). */
export function sniff(bytes: Buffer): DocumentFileType | undefined {
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, PDF)) return 'application/pdf';
  return undefined;
}

export type Accepted = { bytes: Buffer; type: DocumentFileType; sha256: string };

/**
 * The bytes to store, or a refusal: a JPEG or PNG is decoded (truncated or corrupt → FILE_UNREADABLE; past
 * MAX_IMAGE_PIXELS → FILE_TOO_LARGE) and re-encoded upright without any metadata (EXIF, GPS, XMP, ICC names gone);
 * a PDF must start with `%PDF-` and end with `%%EOF`, and is stored as it came: it is never opened or inflated here
 * (only served to staff as a download), so a PDF whose streams inflate hugely costs nothing.
 */
export async function acceptContent(raw: Buffer): Promise<Accepted> {
  const type = sniff(raw);
  if (!type) throw typeNotAllowed();
  const bytes = type === 'application/pdf' ? checkedPdf(raw) : await reencoded(raw, type);
  return { bytes, type, sha256: createHash('sha256').update(bytes).digest('hex') };
}

function checkedPdf(raw: Buffer): Buffer {
  if (!raw.subarray(Math.max(0, raw.length - PDF_TAIL_BYTES)).includes('%%EOF')) throw unreadable();
  return raw;
}

async function reencoded(raw: Buffer, type: 'image/jpeg' | 'image/png'): Promise<Buffer> {
  const options = { failOn: 'truncated' as const, limitInputPixels: MAX_IMAGE_PIXELS };
  let format: string | undefined;
  try {
    format = (await sharp(raw, options).metadata()).format;
  } catch (error) {
    throw pixelsOrUnreadable(error);
  }
  // The signature and the decoder must agree (a JPEG header on something else is not a JPEG).
  if ((type === 'image/jpeg' && format !== 'jpeg') || (type === 'image/png' && format !== 'png')) throw unreadable();
  try {
    // rotate(): the EXIF orientation is applied to the pixels, since the metadata that carried it is dropped.
    const image = sharp(raw, options).rotate();
    return await (type === 'image/jpeg' ? image.jpeg({ quality: 88, mozjpeg: true }) : image.png({ compressionLevel: 9 })).toBuffer();
  } catch (error) {
    throw pixelsOrUnreadable(error);
  }
}

const pixelsOrUnreadable = (error: unknown) =>
  /pixel limit/i.test(String((error as Error)?.message)) ? refuse(413, DocumentsErrorCode.FILE_TOO_LARGE, DocumentsMessage.tooManyPixels) : unreadable();

const EXTENSION: Record<DocumentFileType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };

/**
 * The name the parent's file had, safe to show and to put in a download's header: no folders, no control or quote
 * characters, at most 80 characters, and the extension of what is stored (a PDF named `scan.exe` is `scan.pdf`).
 */
export function safeFileName(given: string | undefined, type: DocumentFileType, kind: DocumentKind): string {
  const base = (given ?? '').split(/[\\/]/).pop() ?? '';
  const stem = base
    .replace(/\.[^.]*$/, '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._()-]/gu, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[ .]+|[ .]+$/g, '')
    .slice(0, 80);
  return `${stem || kind}.${EXTENSION[type]}`;
}
