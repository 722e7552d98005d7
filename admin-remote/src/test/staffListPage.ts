// GET /slot/list's paged answer (issue 41) as the server gives it (server/src/slots/staff-list-page.ts), over the fake's slots.
import { brand, todayInMY, type StaffSlot } from 'shared-api';
import { STAFF_LIST_SORTS, STAFF_OTHER_SCHOOL, STAFF_PAGE_SIZE, staffListQuerySchema } from 'shared-api/schemas';
import { dayOf } from '../lib/format';

/** The parameters that make the answer a page (without them it is the spec's whole list). */
export const PAGE_PARAMS = ['view', 'page', 'limit', 'q', 'sort', 'direction', 'school'];

const startOf = (slot: StaffSlot) => new Date(slot.date).valueOf();
const lower = (text: string | null | undefined) => (text ?? '').toLowerCase();
const digits = (text: string | null | undefined) => (text ?? '').replace(/\D/g, '');
const bucketOf = (slot: StaffSlot) => (brand.schools.some((school) => school.name === slot.selectedSchool) ? slot.selectedSchool : null);

const sortText: Record<(typeof STAFF_LIST_SORTS)[number], (slot: StaffSlot) => string> = {
  dateTime: () => '',
  visitor: (slot) => lower(slot.visitorName),
  child: (slot) => lower(slot.childName),
  school: (slot) => lower(slot.selectedSchool),
  phone: (slot) => digits(slot.visitorContactNo),
};

/** The page, or the 400 message the server's schema gives. */
export function staffListPage(all: StaffSlot[], params: URLSearchParams, now = Date.now()): { data: unknown } | { refusal: string } {
  const parsed = staffListQuerySchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) return { refusal: parsed.error.issues[0].message };
  const { isBooked, view = 'upcoming', page = 1, limit = STAFF_PAGE_SIZE, q, sort = 'dateTime', school } = parsed.data;
  const ascending = (parsed.data.direction ?? (view === 'past' ? 'descending' : 'ascending')) === 'ascending';
  const term = q?.toLowerCase() ?? '';
  const asDigits = /^[\d\s()+.-]+$/.test(term) ? digits(term) : '';
  const hit = (slot: StaffSlot) =>
    !term ||
    [slot.visitorName, slot.visitorEmail, slot.visitorContactNo, slot.bookingReference, slot.childName, slot.selectedSchool].some((text) => lower(text).includes(term)) ||
    (asDigits.length >= 3 && digits(slot.visitorContactNo).includes(asDigits));
  const inView = all.filter((slot) =>
    view === 'booked'
      ? slot.isBooked
      : (view === 'upcoming' ? startOf(slot) > now : startOf(slot) <= now) && (isBooked === undefined || (isBooked === 'true') === slot.isBooked),
  );
  // Rows: in the booked view a booking (one reference at one time), otherwise a slot.
  const units = new Map<string, StaffSlot[]>();
  for (const slot of inView) {
    const key = view === 'booked' && slot.bookingReference ? `${slot.bookingReference}@${slot.date}` : `slot:${slot.id}`;
    units.set(key, [...(units.get(key) ?? []), slot]);
  }
  const matched = [...units.values()].map((seats) => [...seats].sort((a, b) => (a.seat ?? 1) - (b.seat ?? 1) || a.id - b.id)).filter((seats) => seats.some(hit));
  const shown = matched.filter(
    (seats) => view !== 'booked' || school === undefined || seats.some((seat) => (school === STAFF_OTHER_SCHOOL ? bucketOf(seat) === null : seat.selectedSchool === school)),
  );
  const sign = ascending ? 1 : -1;
  shown.sort(
    (a, b) =>
      sign * (sortText[sort](a[0]).localeCompare(sortText[sort](b[0])) || startOf(a[0]) - startOf(b[0]) || (view === 'booked' ? a[0].id - b[0].id : 0)) ||
      (a[0].seat ?? 1) - (b[0].seat ?? 1) ||
      a[0].id - b[0].id,
  );
  const rows = shown.slice((page - 1) * limit, page * limit).flat();
  const today = todayInMY(now);
  const upcoming = all.filter((slot) => startOf(slot) > now);
  const counts = new Map<string | null, number>();
  for (const seat of matched.flat()) counts.set(bucketOf(seat), (counts.get(bucketOf(seat)) ?? 0) + 1);
  return {
    data: {
      timeSlots: { rows, count: shown.flat().length },
      pagination: { total: shown.length, page, limit, totalPages: Math.ceil(shown.length / limit) },
      stats: {
        total: upcoming.length,
        booked: all.filter((slot) => slot.isBooked).length,
        available: upcoming.filter((slot) => !slot.isBooked).length,
        today: upcoming.filter((slot) => dayOf(slot.date) === today).length,
      },
      ...(view === 'booked' && {
        schools: [...brand.schools.map((s) => ({ school: s.name, count: counts.get(s.name) ?? 0 })), { school: null, count: counts.get(null) ?? 0 }],
      }),
    },
  };
}
