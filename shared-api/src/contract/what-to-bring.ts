/** The spec's what-to-bring list: the success page, the confirmation mail and its calendar invitation show these. */
export const WHAT_TO_BRING = [
  'Parent/guardian ID',
  "Student's birth certificate",
  'Immunization records',
  'Previous academic records',
] as const;
