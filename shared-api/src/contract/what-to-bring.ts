/**
 * The spec's what-to-bring list: the success page, the confirmation mail and its calendar invitation show these.
 * The English source of the shared catalogue's `whatToBring.0` … `whatToBring.3` (./locales/*.json, same order).
 */
export const WHAT_TO_BRING = [
  'Parent/guardian ID',
  "Student's birth certificate",
  'Immunization records',
  'Previous academic records',
] as const;
