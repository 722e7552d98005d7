import { brand } from './brand';
// Issue 37: what a checkout of several children costs. Each child pays their school's fee (brand.config.json); a school
// may take a share off for a second child and later ones in the same checkout (its `siblingDiscount`). In whole sen.

/** A school's sibling discount: `percentOff` (1 to 100) off each of its children from the `fromChild`-th in a checkout (2 or more). */
export type SiblingDiscount = { percentOff: number; fromChild: number };

/** One child's line on the summary and the receipt. */
export type ChildPrice = { feeSen: number; discountSen: number; payableSen: number };

/**
 * The lines and the total for children in the order the parent gave them (the first pays in full): a child's discount is
 * its own school's, counted by the child's place in the checkout, rounded to the nearest sen.
 */
export function siblingPrice(children: { feeSen: number; siblingDiscount?: SiblingDiscount }[]): { lines: ChildPrice[]; totalSen: number } {
  const lines = children.map(({ feeSen, siblingDiscount }, index) => {
    if (!Number.isInteger(feeSen) || feeSen < 0) throw new RangeError(`A fee is a whole number of sen, not ${feeSen}`);
    const applies = siblingDiscount !== undefined && index + 1 >= siblingDiscount.fromChild;
    const discountSen = applies ? Math.round((feeSen * siblingDiscount.percentOff) / 100) : 0;
    return { feeSen, discountSen, payableSen: feeSen - discountSen };
  });
  return { lines, totalSen: lines.reduce((sum, line) => sum + line.payableSen, 0) };
}

/**
 * What a checkout charges for these children, in the order the parent gave them: each child's school's fee and sibling
 * discount (brand.config.json). Undefined when a child's school is not in the group (nothing can be charged for it).
 */
export function checkoutPrice(children: { selectedSchool: string }[]): { lines: ChildPrice[]; totalSen: number } | undefined {
  const schools = children.map((child) => brand.schools.find((s) => s.name === child.selectedSchool));
  if (schools.some((school) => !school)) return undefined;
  return siblingPrice(schools.map((school) => ({ feeSen: school!.feeSen, siblingDiscount: school!.siblingDiscount })));
}
