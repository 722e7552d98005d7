import { brand, loadInvitationBuilder, schoolName, TIMEZONE, type ManageView } from 'shared-api';
import type { VisitLanguage } from 'shared-api/contract';

export type CalendarLinks = { googleUrl: string; ics: string };

const utcStamp = (iso: string) => new Date(iso).toISOString().slice(0, 19).replace(/[-:]/g, '') + 'Z';

/**
 * "Add to calendar" for the booking as it is now: a Google Calendar link and an .ics file, built with the same
 * builders (shared-api's calendar chunk, loaded on demand) and the same event id as the success page's download.
 * `language`: the page's locale and the shared catalogue's `t` (English without).
 */
export async function calendarLinks(
  view: Pick<ManageView, 'start' | 'end' | 'school' | 'reference'>,
  now = new Date(),
  language?: VisitLanguage,
): Promise<CalendarLinks> {
  const { buildInvitation, visitDescription, visitTitle } = await loadInvitationBuilder();
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: visitTitle(view.school, language),
    dates: `${utcStamp(view.start)}/${utcStamp(view.end)}`,
    details: visitDescription(view.reference, undefined, language),
    location: schoolName(view.school, language?.locale),
    ctz: TIMEZONE,
  });
  const uid = `${view.reference}@${brand.productName.replace(/\s+/g, '-').toLowerCase()}`;
  const ics = buildInvitation({
    uid,
    start: new Date(view.start),
    end: new Date(view.end),
    school: view.school,
    reference: view.reference,
    now,
    locale: language?.locale,
    translate: language?.translate,
  });
  return { googleUrl: `https://calendar.google.com/calendar/render?${params.toString()}`, ics };
}
