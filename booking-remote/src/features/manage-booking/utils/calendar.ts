import type { ManageView } from 'shared-api';
import type { VisitLanguage } from 'shared-api/contract';
import { loadInvitationBuilder } from '../../../lib/invitation';

export type CalendarLinks = { googleUrl: string; ics: string };

/**
 * "Add to calendar" for the booking as it is now: a Google Calendar link and an .ics file, built with the same
 * builders as the mail's invitation (shared-api's calendar chunk, loaded on demand), the same event id and SEQUENCE.
 * `language`: the page's locale and the shared catalogue's `t` (English without).
 */
export async function calendarLinks(
  view: Pick<ManageView, 'start' | 'end' | 'school' | 'reference' | 'calendarSequence'>,
  now = new Date(),
  language?: VisitLanguage,
): Promise<CalendarLinks> {
  const { buildInvitation, googleCalendarUrl, invitationUid } = await loadInvitationBuilder();
  const visit = { school: view.school, start: new Date(view.start), end: new Date(view.end), reference: view.reference };
  const ics = buildInvitation({
    ...visit,
    uid: invitationUid(view.reference),
    // The last mailed invitation's SEQUENCE: a calendar holding that one takes this file as the same event, not an older copy.
    sequence: view.calendarSequence,
    now,
    locale: language?.locale,
    translate: language?.translate,
  });
  return { googleUrl: googleCalendarUrl(visit, language), ics };
}
