import { checkoutPrice, siblingPrice } from './sibling-price';

const tenOffFromSecond = { percentOff: 10, fromChild: 2 };

test('one child pays the fee; no discount', () => {
  expect(siblingPrice([{ feeSen: 7500, siblingDiscount: tenOffFromSecond }])).toEqual({ lines: [{ feeSen: 7500, discountSen: 0, payableSen: 7500 }], totalSen: 7500 });
});

test("a brother for Secondary after a sister for Primary: 10 % off the second child's own fee, the total in sen", () => {
  const { lines, totalSen } = siblingPrice([{ feeSen: 5000, siblingDiscount: tenOffFromSecond }, { feeSen: 7500, siblingDiscount: tenOffFromSecond }]);
  expect(lines).toEqual([
    { feeSen: 5000, discountSen: 0, payableSen: 5000 },
    { feeSen: 7500, discountSen: 750, payableSen: 6750 },
  ]);
  expect(totalSen).toBe(11750);
});

test("each child's discount is its own school's: a school without one charges in full in any place", () => {
  const { lines } = siblingPrice([{ feeSen: 5000 }, { feeSen: 10000 }, { feeSen: 7500, siblingDiscount: { percentOff: 15, fromChild: 3 } }]);
  expect(lines.map((line) => line.discountSen)).toEqual([0, 0, 1125]);
});

test('a discount that is not whole sen is rounded to the nearest sen; the lines add up to the total', () => {
  const { lines, totalSen } = siblingPrice([{ feeSen: 3333 }, { feeSen: 3333, siblingDiscount: { percentOff: 15, fromChild: 2 } }]);
  expect(lines[1]).toEqual({ feeSen: 3333, discountSen: 500, payableSen: 2833 });
  expect(totalSen).toBe(3333 + 2833);
});

test('a fee that is not whole sen is refused', () => {
  expect(() => siblingPrice([{ feeSen: 75.5 }])).toThrow('A fee is a whole number of sen, not 75.5');
});

test("a checkout's price comes from brand.config.json: Primary then Secondary, the second 10 % off its own fee", () => {
  expect(checkoutPrice([{ selectedSchool: 'Seri Ilmu Private Primary' }, { selectedSchool: 'Seri Ilmu Private Secondary' }])).toEqual({
    lines: [
      { feeSen: 5000, discountSen: 0, payableSen: 5000 },
      { feeSen: 7500, discountSen: 750, payableSen: 6750 },
    ],
    totalSen: 11750,
  });
});

test('a checkout with a school outside the group has no price', () => {
  expect(checkoutPrice([{ selectedSchool: 'Seri Ilmu Private Primary' }, { selectedSchool: 'Elsewhere' }])).toBeUndefined();
});
