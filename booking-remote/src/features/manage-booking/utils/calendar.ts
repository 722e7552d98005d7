import { brand, loadInvitationBuilder, TIMEZONE, type ManageView } from 'shared-api';

export type CalendarLinks = { googleUrl: string; ics: string };

const utcStamp = (iso: string) => new Date(iso).toISOString().slice(0, 19).replace(/[-:]/g, '') + 'Z';

/**
 * "Add to calendar" for the booking as it is now: a Google Calendar link and an .ics file, built with the same
 * builders (shared-api's calendar chunk, loaded on demand) and the same event id as the success page's download.
 */
export async function calendarLinks(view: Pick<ManageView, 'start' | 'end' | 'school' | 'reference'>, now = new Date()): Promise<CalendarLinks> {
  const { buildInvitation, visitDescription, visitTitle } = await loadInvitationBuilder();
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: visitTitle(view.school),
    dates: `${utcStamp(view.start)}/${utcStamp(view.end)}`,
    details: visitDescription(view.reference),
    location: view.school,
    ctz: TIMEZONE,
  });
  const uid = `${view.reference}@${brand.productName.replace(/\s+/g, '-').toLowerCase()}`;
  const ics = buildInvitation({ uid, start: new Date(view.start), end: new Date(view.end), school: view.school, reference: view.reference, now });
  return { googleUrl: `https://calendar.google.com/calendar/render?${params.toString()}`, ics };
}
