import brandConfig from '../../../brand.config.json';
import type { Locale } from './locale';

// Product name, schools, fees (sen), support address and links: one file for the whole group.
/** `name` is the school's key (stored with bookings, sent by the form); `names` may give other languages their own. */
/** `siblingDiscount`: a share off this school's fee for a second child and later ones in one checkout (issue 37). */
export type School = { name: string; feeSen: number; names?: Partial<Record<Locale, string>>; siblingDiscount?: { percentOff: number; fromChild: number } };
export type Brand = {
  productName: string;
  title: string;
  /** The title in other languages, when the group gives one. */
  titles?: Partial<Record<Locale, string>>;
  logoText: string;
  brandColor: string;
  supportEmail: string;
  registrationFormUrl: string;
  schools: School[];
  unknownSchoolFeeSen: number;
};
// Each field read by name: the bundler then leaves the file's other keys (bookingChanges, read by the server) out of the browser's first load.
export const brand: Brand = {
  productName: brandConfig.productName,
  title: brandConfig.title,
  titles: brandConfig.titles,
  logoText: brandConfig.logoText,
  brandColor: brandConfig.brandColor,
  supportEmail: brandConfig.supportEmail,
  registrationFormUrl: brandConfig.registrationFormUrl,
  schools: brandConfig.schools,
  unknownSchoolFeeSen: brandConfig.unknownSchoolFeeSen,
};

/** A school's fee in sen from brand.config.json, the price list the server charges; undefined for a school not on it. */
export const schoolFeeSen = (school: string): number | undefined => brand.schools.find((s) => s.name === school)?.feeSen;

/** The fee shown for a school that may have left brand.config.json since (a waitlist entry, a stored booking). */
export const feeOfSchool = (school: string): number => schoolFeeSen(school) ?? brand.unknownSchoolFeeSen;

/** A school's name as a parent reading `locale` sees it (its own name when the group gives none). */
export const schoolName = (school: string, locale: Locale = 'en'): string =>
  brand.schools.find((s) => s.name === school)?.names?.[locale] ?? school;

/** The product's title in `locale`. */
export const brandTitle = (locale: Locale = 'en'): string => brand.titles?.[locale] ?? brand.title;
