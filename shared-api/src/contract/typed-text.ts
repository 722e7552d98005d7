// What people type (visitor names, emails and phones, staff usernames) made safe to print in mails, CSV files,
// calendar feeds and pages, the same way in the form and on the server.

/**
 * Invisible format characters (Unicode category Cf): the bidirectional controls (U+202A–202E, U+2066–2069, U+200E,
 * U+200F, U+061C), the zero-width characters (U+200B–200D, U+2060, U+FEFF), the soft hyphen and the like. They are
 * stripped, not refused: they show nothing, so a parent told about one could not find it to delete it (phones and
 * chat apps paste U+200E and U+FEFF), and without them a name reads the same, minus any reordering trick
 * (U+202E turned "gnp.exe" into "exe.png" in a mail subject).
 */
const INVISIBLE_FORMAT = /\p{Cf}/gu;
/** Runs of white space and control characters (tabs and line breaks included): one space, so text stays on one line. */
const SPACE_OR_CONTROL = /[\s\p{Cc}]+/gu;

/** Typed text as it is stored: no invisible format characters, one line, single spaces, trimmed, in Unicode NFC. */
export const cleanTypedText = (typed: string): string =>
  typed.replace(INVISIBLE_FORMAT, '').normalize('NFC').replace(SPACE_OR_CONTROL, ' ').trim();

/** Characters as people count them (code points), not UTF-16 units: an emoji or a rare CJK character is one. */
export const characterCount = (text: string): number => Array.from(text).length;

/** The first `max` characters (code points), so a cut never splits a surrogate pair into U+FFFD. */
export const firstCharacters = (text: string, max: number): string => (characterCount(text) <= max ? text : Array.from(text).slice(0, max).join(''));

/** An email as typed: invisible format characters dropped (a pasted address often carries one), trimmed. */
export const cleanTypedEmail = (typed: string): string => typed.replace(INVISIBLE_FORMAT, '').trim();

/** Malaysia's calling code: a number given in the international form (+60, 0060, 60) is stored in the national form (0…). */
export const MALAYSIA_CALLING_CODE = '60';
/** What people put between a phone number's digits: spaces, hyphens, dots, brackets. */
const PHONE_SEPARATORS = /[\s\-.()]/g;

/**
 * A contact number as stored: digits only, a Malaysian number in its national form (`+60 12-345 6789`,
 * `60123456789` and `012-345 6789` are all `0123456789`), another country's as `+` and its digits. Full-width digits
 * (a Chinese keyboard) count as digits. Anything else is returned compacted, for the digits rule to refuse.
 */
export function normalisePhone(typed: string): string {
  const compact = typed.normalize('NFKC').replace(INVISIBLE_FORMAT, '').replace(PHONE_SEPARATORS, '');
  const international = /^(?:\+|00)(\d+)$/.exec(compact)?.[1] ?? (compact.startsWith(MALAYSIA_CALLING_CODE) ? compact : undefined);
  if (international === undefined) return compact;
  // "+60 (0)12…": the national 0 written after the calling code is dropped once.
  if (international.startsWith(MALAYSIA_CALLING_CODE)) return `0${international.slice(MALAYSIA_CALLING_CODE.length).replace(/^0/, '')}`;
  return `+${international}`;
}
