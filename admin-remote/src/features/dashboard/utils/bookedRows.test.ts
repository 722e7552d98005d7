import type { StaffSlot } from 'shared-api';
import { groupBookingSeats, seatsOf } from './bookedRows';

const seat = (id: number, over: Partial<StaffSlot>): StaffSlot => ({
  id,
  date: '2026-11-24T09:00:00+08:00',
  startTime: '09:00',
  endTime: '09:30',
  isBooked: true,
  status: 'booked',
  visitorName: 'Aisyah Rahman',
  visitorEmail: 'aisyah@example.my',
  visitorContactNo: '0123456789',
  selectedSchool: 'Seri Ilmu Private Primary',
  childName: null,
  childYear: null,
  bookingReference: 'BK-1',
  amountSen: 4500,
  ...over,
});

test("one booking's seats at one time are one row led by its first seat; other bookings and slots without a reference stay rows of their own", () => {
  const rows = groupBookingSeats([
    seat(12, { childName: 'Siti Hajar', seat: 2, seats: 3 }),
    seat(20, { bookingReference: 'BK-2', childName: 'Nur Iman' }),
    seat(11, { childName: 'Adam Firdaus', seat: 1, seats: 3 }),
    seat(30, { bookingReference: null, childName: 'Demo 1' }),
    seat(31, { bookingReference: null, childName: 'Demo 2' }),
  ]);
  expect(rows.map((row) => seatsOf(row).map((s) => s.childName))).toEqual([['Adam Firdaus', 'Siti Hajar'], ['Nur Iman'], ['Demo 1'], ['Demo 2']]);
  expect(rows[0].id).toBe(11);
  expect(rows[1].bookingSeats).toBeUndefined();
});
