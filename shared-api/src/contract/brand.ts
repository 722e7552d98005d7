import brandConfig from '../../../brand.config.json';

// Product name, schools, fees (sen), support address and links: one file for the whole group.
export type School = { name: string; feeSen: number };
export type Brand = {
  productName: string;
  title: string;
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
  logoText: brandConfig.logoText,
  brandColor: brandConfig.brandColor,
  supportEmail: brandConfig.supportEmail,
  registrationFormUrl: brandConfig.registrationFormUrl,
  schools: brandConfig.schools,
  unknownSchoolFeeSen: brandConfig.unknownSchoolFeeSen,
};

/** Spec fallback fee when server pricing is missing. */
export const fallbackFeeSen = (school: string): number =>
  brand.schools.find((s) => s.name === school)?.feeSen ?? brand.unknownSchoolFeeSen;
