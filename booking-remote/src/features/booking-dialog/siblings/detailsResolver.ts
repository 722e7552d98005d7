import type { FieldError, Resolver } from 'react-hook-form';
import type { SiblingDetails, SiblingDetailsInput, VisitorDetails, VisitorDetailsInput } from 'shared-api';
import { siblingDetailsSchema } from 'shared-api/schemas';
import { formResolver } from 'shared-api/schemas';
import { visitorResolver } from '../../../lib/visitor-fields/visitorResolver';

/** The details form: the parent and the first child, and the brothers and sisters booked with them (issue 37). */
export type DetailsFormInput = VisitorDetailsInput & { siblings: SiblingDetailsInput[] };
export type DetailsFormValues = VisitorDetails & { siblings: SiblingDetails[] };

const siblingResolver = formResolver(siblingDetailsSchema);

/**
 * The contract's rules on the whole form: the visitor's details as the one-child form checks them, and each sibling by
 * the same rules (their errors under `siblings.N.field`, where react-hook-form shows them).
 */
export const detailsResolver: Resolver<DetailsFormInput, unknown, DetailsFormValues> = async (values, context, options) => {
  const { siblings = [], ...visitor } = values;
  const first = await visitorResolver(visitor, context, options as never);
  const others = await Promise.all(siblings.map((sibling) => siblingResolver(sibling)));
  const siblingErrors = others.map((other) => (Object.keys(other.errors).length > 0 ? (other.errors as Record<string, FieldError>) : undefined));
  const valid = Object.keys(first.errors).length === 0 && siblingErrors.every((e) => e === undefined);
  if (valid) return { values: { ...(first.values as VisitorDetails), siblings: others.map((other) => other.values as SiblingDetails) }, errors: {} };
  return { values: {}, errors: { ...first.errors, ...(siblingErrors.some(Boolean) && { siblings: siblingErrors }) } as never };
};
