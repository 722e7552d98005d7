import brandConfig from '../../../brand.config.json';
import type { ErrorCode } from './codes';
import type { Locale } from './locale';

// The privacy notice parents read before they consent (PDPA 2010, section 7), from brand.config.json's `privacyNotice`:
// the school group's notice in every language, versioned: `current` names the version in force and `versions` keeps
// every version ever shown (a consent names its version, so the text a parent agreed to can always be read again).
// Kept out of shared-api's root like `schoolDetails`, so its texts weigh only on the booking dialog's lazy chunk.
// Browser: `shared-api/privacy`.

/** The form fields whose purpose the notice states (each one the booking form asks). */
export const NOTICE_FIELDS = ['visitorName', 'visitorEmail', 'visitorContactNo', 'childName', 'selectedSchool', 'childYear'] as const;
export type NoticeField = (typeof NOTICE_FIELDS)[number];
export type PrivacyNoticeText = {
  title: string;
  /** Who collects, what, why, how long, who it is shared with, access and correction, the contact: in that order. */
  sections: { heading: string; body: string }[];
  fieldsHeading: string;
  /** Each booking-form field's purpose. */
  fields: Record<NoticeField, string>;
};
export type PrivacyNotice = {
  /** Stored with every consent: a changed text gets a new version, added to `versions` (never replacing one). */
  version: string;
  /** The day (YYYY-MM-DD) this version came into force. */
  updatedAt: string;
  texts: Record<Locale, PrivacyNoticeText>;
};
export type PrivacyNoticeConfig = { current: string; versions: PrivacyNotice[] };

const noticeConfig: PrivacyNoticeConfig = brandConfig.privacyNotice;

/** Every version of the notice ever in force, newest first as configured. */
export const noticeVersions: readonly PrivacyNotice[] = noticeConfig.versions;

/** The notice of a given version (what a consent naming it agreed to); undefined for 'legacy' or an unknown version. */
export const noticeOfVersion = (version: string): PrivacyNotice | undefined => noticeVersions.find((n) => n.version === version);

/** A version's notice in one language as plain text (what a parent agreed to, for their data's export); undefined when unknown. */
export function noticeText(version: string, language: Locale): string | undefined {
  const text = noticeOfVersion(version)?.texts[language];
  if (!text) return undefined;
  const fields = [text.fieldsHeading, ...NOTICE_FIELDS.map((field) => `- ${text.fields[field]}`)].join('\n');
  return [text.title, ...text.sections.map((section) => `${section.heading}\n${section.body}`), fields].join('\n\n');
}

/** The notice in force: the one the booking form shows and a consent must name. */
export const privacyNotice: PrivacyNotice = (() => {
  const current = noticeOfVersion(noticeConfig.current);
  if (!current) throw new Error(`brand.config.json privacyNotice.current names ${noticeConfig.current}, which is not among its versions`);
  return current;
})();

/** 400: the consent names a notice version that is not the one in force (the page must show the current notice). */
export const NOTICE_OUTDATED = 'NOTICE_OUTDATED' satisfies ErrorCode;

/** The version a consent must name to be recorded: the notice the parent was shown is the one in force. */
export const currentNoticeVersion = (): string => privacyNotice.version;
