// The Booked view's rows (issue 37): a booking of several children takes a seat per child at one time; its seats are one
// row, the parent named once and each child listed.
import type { StaffSlot } from 'shared-api';

/** A booked seat; for a booking of several children, the row of all its seats (`bookingSeats`, in seat order). */
export type BookedRow = StaffSlot & { bookingSeats?: StaffSlot[] };

/** Every seat a row stands for: its booking's seats, or itself. */
export const seatsOf = (row: BookedRow): StaffSlot[] => row.bookingSeats ?? [row];

const seatOrder = (a: StaffSlot, b: StaffSlot) => (a.seat ?? 0) - (b.seat ?? 0) || a.id - b.id;

/** The seats of one booking (one reference at one time) as one row, led by its first seat; other slots as they are, in order. */
export function groupBookingSeats(slots: StaffSlot[]): BookedRow[] {
  const seatsByBooking = new Map<string, StaffSlot[]>();
  const leads: StaffSlot[] = [];
  for (const slot of slots) {
    // A slot without a reference (the demo data) is a booking of its own.
    const key = slot.bookingReference === null ? null : `${slot.bookingReference}|${slot.date}|${slot.startTime}`;
    const seats = key === null ? undefined : seatsByBooking.get(key);
    if (seats) seats.push(slot);
    else {
      if (key !== null) seatsByBooking.set(key, [slot]);
      leads.push(slot);
    }
  }
  return leads.map((lead) => {
    const seats = lead.bookingReference === null ? undefined : seatsByBooking.get(`${lead.bookingReference}|${lead.date}|${lead.startTime}`);
    if (!seats || seats.length < 2) return lead;
    const ordered = [...seats].sort(seatOrder);
    return { ...ordered[0], bookingSeats: ordered };
  });
}
