import { cancellableAlone, stillBooked, stillBookedSen, type ManagedChild } from './children';

const child = (position: number, amountSen: number, cancelled = false): ManagedChild => ({
  position,
  childName: `Child ${position}`,
  childYear: 'Year 1',
  selectedSchool: 'Seri Ilmu Private Primary',
  feeSen: 5000,
  discountSen: 5000 - amountSen,
  amountSen,
  cancelled,
  refundSen: cancelled ? amountSen : null,
  cancelQuote: cancelled ? null : { percent: 100, amountSen },
});

test('a booking of one child: nothing to cancel alone, the whole payment concerned', () => {
  expect(stillBooked({ children: undefined })).toEqual([]);
  expect(cancellableAlone({ children: undefined })).toEqual([]);
  expect(stillBookedSen({ children: undefined, amountPaidSen: 5000 })).toBe(5000);
});

test('children cancelled alone are left out; the last child still booked is not offered alone', () => {
  const three = [child(1, 5000), child(2, 4500, true), child(3, 4500)];
  expect(cancellableAlone({ children: three }).map((c) => c.position)).toEqual([1, 3]);
  expect(stillBookedSen({ children: three, amountPaidSen: 14000 })).toBe(9500);
  expect(cancellableAlone({ children: [child(1, 5000), child(2, 4500, true)] })).toEqual([]);
});
