import brandConfig from '../../../brand.config.json';
import type { Locale } from './locale';

// Each school's place (address, map link, phone) and the years or grades it takes, from brand.config.json's
// `schoolDetails` (keyed by the school's `name`). Kept out of `schools[]` and out of shared-api's root on purpose:
// the bundler drops a JSON key no first-load module reads, so none of this weighs on the public page's first load
// (the booking dialog, result pages, manage page, mails and invitations read it). Browser: `shared-api/schools`.

/** A year or grade a school takes: `name` is its key (stored with the booking, sent by the form), `names` other languages' words. */
export type SchoolYear = { name: string; names?: Partial<Record<Locale, string>> };
export type SchoolDetails = {
  /** One line, as it goes on an envelope. */
  address: string;
  /** A map link parents open on their phone (Google Maps, Waze…). */
  mapUrl: string;
  /** The school office's number as Malaysians write it ("03-7726 4100"). */
  phone: string;
  years: SchoolYear[];
};

const DETAILS: Record<string, SchoolDetails> = brandConfig.schoolDetails;

/** A school's place and years; undefined for a name that is not one of the group's schools. */
export const schoolDetails = (school: string): SchoolDetails | undefined =>
  Object.prototype.hasOwnProperty.call(DETAILS, school) ? DETAILS[school] : undefined;

/** The years or grades `school` takes, in order (none for an unknown school). */
export const schoolYears = (school: string): SchoolYear[] => schoolDetails(school)?.years ?? [];

/** Whether `school` takes `year` (its English name, the key the form sends). */
export const isSchoolYear = (school: string, year: string): boolean => schoolYears(school).some((y) => y.name === year);

/** A year as a parent reading `locale` sees it ("Year 1", "Tahun 1", "一年级"); the key itself when unknown. */
export const schoolYearName = (school: string, year: string, locale: Locale = 'en'): string =>
  schoolYears(school).find((y) => y.name === year)?.names?.[locale] ?? year;

/** A phone number as a `tel:` link: digits only, a Malaysian number with its calling code (03-7726 4100 → tel:+60377264100). */
export const telHref = (phone: string): string => {
  const digits = phone.replace(/[^\d+]/g, '');
  return `tel:${digits.startsWith('+') ? digits : digits.startsWith('0') ? `+60${digits.slice(1)}` : digits}`;
};
