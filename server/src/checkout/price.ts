import { checkoutPrice, ErrorCode, schoolFeeSen, ValidationMessage, type ChildPrice } from 'shared-api/contract';
import { AppError } from '../base/errors';

/**
 * What the checkout charges for a visit at `school`, in sen: the school's fee in brand.config.json. There is no price
 * for a school outside the group (the browser's display fallback is the spec's, never a charge): 400, or the caller's
 * own refusal.
 */
export function priceOf(school: string, unknown = () => new AppError(400, ErrorCode.VALIDATION_ERROR, ValidationMessage.schoolRequired)): number {
  const fee = schoolFeeSen(school);
  if (fee === undefined) throw unknown();
  return fee;
}

/** Whether the checkout can charge for a visit at `school` (a school may have left the group since a parent chose it). */
export const hasPrice = (school: string): boolean => schoolFeeSen(school) !== undefined;

/**
 * What a checkout of several children charges (issue 37), in the order given: each child's school's fee less its sibling
 * discount (brand.config.json). A child's school outside the group: 400, as for one child.
 */
export function priceOfChildren(children: { selectedSchool: string }[]): { lines: ChildPrice[]; totalSen: number } {
  const price = checkoutPrice(children);
  if (!price) throw new AppError(400, ErrorCode.VALIDATION_ERROR, ValidationMessage.schoolRequired);
  return price;
}
