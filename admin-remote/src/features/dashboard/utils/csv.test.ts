import type { StaffBookingRow } from 'shared-api';
import { bookingsCsv, bookingsInRange, csvCell, guardFormula } from './csv';
import { marksOf } from './attendance';

const booking = (over: Partial<StaffBookingRow>): StaffBookingRow => ({
  reference: 'BK-0001',
  paymentId: 'pay_1',
  visitorName: 'Aisyah Rahman',
  visitorEmail: 'aisyah@example.my',
  visitorContactNo: '0123456789',
  childName: 'Nur Iman',
  childYear: 'Year 7',
  school: 'Seri Ilmu International',
  // 8:30 - 9:00 AM on Nov 23, 2026 in GMT+8.
  start: '2026-11-23T00:30:00.000Z',
  end: '2026-11-23T01:00:00.000Z',
  amountPaidSen: 10000,
  state: 'booked',
  refund: null,
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

describe('bookingsCsv', () => {
  it('writes the header with Status and Refund last and one line per booking of the range, earliest first, with CRLF line ends', () => {
    const bookings = [
      booking({
        reference: 'BK-0002',
        visitorName: 'Tan, Mei Ling',
        start: '2026-11-24T02:00:00.000Z',
        end: '2026-11-24T02:30:00.000Z',
        amountPaidSen: 7550,
        state: 'cancelled',
        refund: { amountSen: 7550, state: 'refunded' },
      }),
      booking({ reference: 'BK-0003', start: '2026-11-25T01:00:00.000Z', end: '2026-11-25T01:30:00.000Z', state: 'cancelled', refund: null }),
      booking({ reference: 'BK-0004', start: '2026-11-26T01:00:00.000Z', end: '2026-11-26T01:30:00.000Z', state: 'cancelled', refund: { amountSen: 5000, state: 'pending' } }),
      booking({ reference: 'BK-0005', start: '2026-11-27T01:00:00.000Z', end: '2026-11-27T01:30:00.000Z', state: 'cancelled', refund: { amountSen: 5000, state: 'failing' } }),
      booking({ reference: 'BK-0006', start: '2026-11-28T01:00:00.000Z', end: '2026-11-28T01:30:00.000Z', state: 'over', amountPaidSen: 150000 }),
      booking({}),
      booking({ reference: 'BK-OUT', start: '2026-12-01T00:30:00.000Z', end: '2026-12-01T01:00:00.000Z' }),
    ];
    const csv = bookingsCsv(bookings, '2026-11-23', '2026-11-30');
    expect(csv.split('\r\n')).toEqual([
      'Name,Email,Phone,School,Child,Year or grade,Date,Time,Amount (RM),Reference,Status,Refund,Attendance',
      'Aisyah Rahman,aisyah@example.my,012-345 6789,Seri Ilmu International,Nur Iman,Year 7,23 Nov 2026,8:30 AM – 9:00 AM,100,BK-0001,Booked,,',
      '"Tan, Mei Ling",aisyah@example.my,012-345 6789,Seri Ilmu International,Nur Iman,Year 7,24 Nov 2026,10:00 AM – 10:30 AM,75.50,BK-0002,Cancelled,RM 75.50 refunded,',
      'Aisyah Rahman,aisyah@example.my,012-345 6789,Seri Ilmu International,Nur Iman,Year 7,25 Nov 2026,9:00 AM – 9:30 AM,100,BK-0003,Cancelled,No refund,',
      'Aisyah Rahman,aisyah@example.my,012-345 6789,Seri Ilmu International,Nur Iman,Year 7,26 Nov 2026,9:00 AM – 9:30 AM,100,BK-0004,Cancelled,RM 50 refund pending,',
      'Aisyah Rahman,aisyah@example.my,012-345 6789,Seri Ilmu International,Nur Iman,Year 7,27 Nov 2026,9:00 AM – 9:30 AM,100,BK-0005,Cancelled,RM 50 refund failing,',
      // The shared money format groups thousands, so the cell is quoted.
      'Aisyah Rahman,aisyah@example.my,012-345 6789,Seri Ilmu International,Nur Iman,Year 7,28 Nov 2026,9:00 AM – 9:30 AM,"1,500",BK-0006,Visit over,,',
      '',
    ]);
  });

  it('reads the day in GMT+8: a UTC instant late on the 22nd is the 23rd in Malaysia', () => {
    const late = booking({ start: '2026-11-22T16:30:00.000Z', end: '2026-11-22T17:00:00.000Z' });
    expect(bookingsInRange([late], '2026-11-23', '2026-11-23')).toHaveLength(1);
    expect(bookingsInRange([late], '2026-11-22', '2026-11-22')).toHaveLength(0);
    expect(bookingsCsv([late], '2026-11-23', '2026-11-23').split('\r\n')[1]).toContain('23 Nov 2026,12:30 AM – 1:00 AM');
  });

  it('guards a visitor name that is a formula and leaves an empty contact number empty', () => {
    const csv = bookingsCsv([booking({ visitorName: '=cmd|calc', visitorContactNo: '' })], '2026-11-23', '2026-11-23');
    expect(csv.split('\r\n')[1]).toBe("'=cmd|calc,aisyah@example.my,,Seri Ilmu International,Nur Iman,Year 7,23 Nov 2026,8:30 AM – 9:00 AM,100,BK-0001,Booked,,");
  });

  it('keeps a phone number text with its leading zero: as Malaysians write it, or after a tab when digits only', () => {
    const phoneOf = (visitorContactNo: string) => bookingsCsv([booking({ visitorContactNo })], '2026-11-23', '2026-11-23').split('\r\n')[1].split(',')[2];
    expect(phoneOf('0165773086')).toBe('016-577 3086');
    expect(phoneOf('+6591234567')).toBe('\t+6591234567');
    expect(phoneOf('0123456789012')).toBe('\t0123456789012');
  });
});

describe('bookingsCsv for brothers and sisters (issue 37)', () => {
  it("writes a row per child with the child's school, year and share; the parent and reference on each", () => {
    const children = [
      { position: 1, childName: 'Adam Firdaus', childYear: 'Form 1', selectedSchool: 'Seri Ilmu Private Secondary', feeSen: 7500, discountSen: 0, amountSen: 7500, cancelled: false, refundSen: null },
      { position: 2, childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary', feeSen: 5000, discountSen: 500, amountSen: 4500, cancelled: true, refundSen: 4500 },
    ];
    const rows = bookingsCsv([booking({ amountPaidSen: 12000, children })], '2026-11-23', '2026-11-23').trim().split('\r\n');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(/^Aisyah Rahman,aisyah@example\.my,.*,Seri Ilmu Private Secondary,Adam Firdaus,Form 1,.*,75,BK-0001,Booked,,$/);
    expect(rows[2]).toMatch(/^Aisyah Rahman,aisyah@example\.my,.*,Seri Ilmu Private Primary,Siti Hajar,Year 1,.*,45,BK-0001,Cancelled,RM 45 refunded,$/);
  });

  it("says a child cancelled alone without a refund, and the whole booking's refund on the rows of the children cancelled with it", () => {
    const child = { childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary', feeSen: 5000, discountSen: 500, amountSen: 4500 };
    const children = [
      { ...child, position: 1, childName: 'Siti Hajar', cancelled: true, refundSen: 0 },
      { ...child, position: 2, childName: 'Hana Sofea', cancelled: false, refundSen: null },
    ];
    const rows = bookingsCsv([booking({ amountPaidSen: 9000, children, state: 'cancelled', refund: { amountSen: 4500, state: 'pending' } })], '2026-11-23', '2026-11-23')
      .trim()
      .split('\r\n');
    expect(rows.slice(1).map((row) => row.split(',').slice(4).join(','))).toEqual([
      'Siti Hajar,Year 1,23 Nov 2026,8:30 AM – 9:00 AM,45,BK-0001,Cancelled,No refund,',
      'Hana Sofea,Year 1,23 Nov 2026,8:30 AM – 9:00 AM,45,BK-0001,Cancelled,RM 45 refund pending,',
    ]);
  });

  it("gives a child staff moved alone that child's own day and time", () => {
    const child = { childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary', feeSen: 5000, discountSen: 500, amountSen: 4500, cancelled: false, refundSen: null };
    const children = [
      { ...child, position: 1, childName: 'Siti Hajar' },
      { ...child, position: 2, childName: 'Hana Sofea', time: { date: '2026-11-25', startTime: '10:00', endTime: '10:30' } },
    ];
    const rows = bookingsCsv([booking({ amountPaidSen: 9000, children })], '2026-11-23', '2026-11-23').trim().split('\r\n');
    expect(rows.slice(1).map((row) => row.split(',').slice(4, 8).join(','))).toEqual(['Siti Hajar,Year 1,23 Nov 2026,8:30 AM – 9:00 AM', 'Hana Sofea,Year 1,25 Nov 2026,10:00 AM – 10:30 AM']);
  });
});

describe('bookingsCsv with attendance (issue 40)', () => {
  it("says Arrived or No-show per visit (a child moved alone by that child's own time), empty when not marked", () => {
    const child = { childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary', feeSen: 5000, discountSen: 500, amountSen: 4500, cancelled: false, refundSen: null };
    const children = [
      { ...child, position: 1, childName: 'Siti Hajar' },
      { ...child, position: 2, childName: 'Hana Sofea', time: { date: '2026-11-25', startTime: '10:00', endTime: '10:30' } },
    ];
    const marks = marksOf([
      { reference: 'BK-0001', start: booking({}).start, state: 'arrived', at: '2026-11-23T00:25:00.000Z', by: 'desk@example.my', undoableUntil: '2026-11-23T00:30:00.000Z' },
      { reference: 'BK-0001', start: '2026-11-25T02:00:00.000Z', state: 'noShow', at: '2026-11-25T02:20:00.000Z', by: 'desk@example.my', undoableUntil: '2026-11-25T02:25:00.000Z' },
    ]);
    const rows = bookingsCsv([booking({ amountPaidSen: 9000, children }), booking({ reference: 'BK-0002' })], '2026-11-23', '2026-11-25', marks).trim().split('\r\n');
    expect(rows.slice(1).map((row) => [row.split(',')[4], row.split(',')[9], row.split(',').at(-1)])).toEqual([
      ['Siti Hajar', 'BK-0001', 'Arrived'],
      ['Hana Sofea', 'BK-0001', 'No-show'],
      ['Nur Iman', 'BK-0002', ''],
    ]);
  });
});
