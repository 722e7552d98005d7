// One way to show a contact number, wherever staff read one (the desk, its CSV, the admin's mails, the calendar feed).

/** Malaysian numbers, national form, by how they are written: mobile 3-3-4 or 3-4-4, Klang Valley 2-4-4, other states 2-3-4, Sabah and Sarawak 3-3-3. */
const MALAYSIAN_NUMBERS: Array<[RegExp, string]> = [
  [/^(01\d)(\d{3})(\d{4})$/, '$1-$2 $3'],
  [/^(01\d)(\d{4})(\d{4})$/, '$1-$2 $3'],
  [/^(03)(\d{4})(\d{4})$/, '$1-$2 $3'],
  [/^(0[4-79])(\d{3})(\d{4})$/, '$1-$2 $3'],
  [/^(08\d)(\d{3})(\d{3})$/, '$1-$2 $3'],
];

/**
 * A contact number as Malaysians write it ('016-577 3086', '03-1234 5678'); any other number as it was given; null for
 * none. A deliberate change from the spec's US-style '(xxx) xxx-xxxx' (docs/ARCHITECTURE.md).
 */
export function formatPhone(contact: string | null | undefined): string | null {
  const text = (contact ?? '').trim();
  if (!text) return null;
  if (!/^[\d\s().-]+$/.test(text)) return text;
  const digits = text.replace(/\D/g, '');
  for (const [pattern, written] of MALAYSIAN_NUMBERS) if (pattern.test(digits)) return digits.replace(pattern, written);
  return text;
}
