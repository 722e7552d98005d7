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
export const brand: Brand = brandConfig;

/** Spec fallback fee when server pricing is missing. */
export const fallbackFeeSen = (school: string): number =>
  brand.schools.find((s) => s.name === school)?.feeSen ?? brand.unknownSchoolFeeSen;
