/**
 * Malaysian contact numbers as the booking form stores them ("0…" national or "+…" international, digits, maybe
 * spaced or dashed for display) → E.164 ("+60123456789"), or null when the number cannot be a valid one.
 */
export function toE164(stored: string | null | undefined): string | null {
  if (!stored) return null;
  // Spaces and dashes are how people type and how pages show a number; they carry no digits.
  const s = stored.replace(/[\s-]/g, '');
  let digits: string;
  if (/^\+\d+$/.test(s)) digits = s.slice(1);
  else if (/^0\d+$/.test(s)) digits = `60${s.slice(1)}`;
  else return null;
  if (digits.startsWith('0')) return null;
  // E.164: at most 15 digits; Malaysian numbers are 60 + 8 to 10 digits.
  if (digits.startsWith('60')) return /^60[1-9]\d{7,9}$/.test(digits) ? `+${digits}` : null;
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null;
}
