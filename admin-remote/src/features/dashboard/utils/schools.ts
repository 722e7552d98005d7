import en from '../locales/en.json';

/** The "other" bucket's key (its English words; shown in the page's language): bookings at none of the brand's schools. */
export const OTHER_SCHOOL = en.otherSchool;
