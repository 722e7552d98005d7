import type { StaffSlot } from 'shared-api';
import { bookedSlotsCsv, bookedSlotsInRange, csvCell, guardFormula } from './csv';

const slot = (over: Partial<StaffSlot>): StaffSlot => ({
  id: 1,
  date: '2026-11-23T08:30:00+08:00',
  startTime: '08:30',
  endTime: '09:00',
  isBooked: true,
  status: 'booked',
  visitorName: 'Aisyah Rahman',
  visitorEmail: 'aisyah@example.my',
  visitorContactNo: '0123456789',
  selectedSchool: 'Seri Ilmu International',
  bookingReference: 'BK-0001',
  amountSen: 10000,
  ...over,
});

describe('csvCell', () => {
  it('leaves plain text alone and writes empty for missing values', () => {
    expect(csvCell('Aisyah')).toBe('Aisyah');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(75)).toBe('75');
  });

  it('quotes commas, quotes and line breaks, doubling inner quotes', () => {
    expect(csvCell('Tan, Mei Ling')).toBe('"Tan, Mei Ling"');
    expect(csvCell('The "Boss"')).toBe('"The ""Boss"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  it('guards cells a spreadsheet would run as formulas', () => {
    for (const evil of ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx']) {
      expect(guardFormula(evil)).toBe(`'${evil}`);
    }
    expect(csvCell('=1+2')).toBe("'=1+2");
    // A guarded cell that also needs quoting keeps both protections.
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(guardFormula('Aisyah = 1')).toBe('Aisyah = 1');
  });
});

describe('bookedSlotsCsv', () => {
  it('writes the header and one line per booked slot of the range, earliest first, with CRLF line ends', () => {
    const slots = [
      slot({ id: 2, date: '2026-11-24T10:00:00+08:00', startTime: '10:00', endTime: '10:30', visitorName: 'Tan, Mei Ling', bookingReference: 'BK-0002', amountSen: 7550 }),
      slot({ id: 1 }),
      slot({ id: 3, visitorName: null, isBooked: false, status: 'available' }),
      slot({ id: 4, date: '2026-12-01T08:30:00+08:00', visitorName: 'Out of range' }),
    ];
    const csv = bookedSlotsCsv(slots, '2026-11-23', '2026-11-30');
    expect(csv.split('\r\n')).toEqual([
      'Name,Email,Phone,School,Date,Time,Amount (RM),Reference',
      'Aisyah Rahman,aisyah@example.my,0123456789,Seri Ilmu International,"Nov 23, 2026",8:30 AM - 9:00 AM,100.00,BK-0001',
      '"Tan, Mei Ling",aisyah@example.my,0123456789,Seri Ilmu International,"Nov 24, 2026",10:00 AM - 10:30 AM,75.50,BK-0002',
      '',
    ]);
  });

  it('reads the day in GMT+8: a UTC instant late on the 22nd is the 23rd in Malaysia', () => {
    const late = slot({ date: '2026-11-22T16:30:00.000Z', startTime: '00:30', endTime: '01:00' });
    expect(bookedSlotsInRange([late], '2026-11-23', '2026-11-23')).toHaveLength(1);
    expect(bookedSlotsInRange([late], '2026-11-22', '2026-11-22')).toHaveLength(0);
  });

  it('guards a visitor name that is a formula and leaves missing fields empty', () => {
    const csv = bookedSlotsCsv([slot({ visitorName: '=cmd|calc', visitorContactNo: null, bookingReference: null, amountSen: null })], '2026-11-23', '2026-11-23');
    expect(csv.split('\r\n')[1]).toBe("'=cmd|calc,aisyah@example.my,,Seri Ilmu International,\"Nov 23, 2026\",8:30 AM - 9:00 AM,,");
  });
});
