import type { FieldErrors, Resolver } from 'react-hook-form';
import type { VisitorDetails, VisitorDetailsInput } from 'shared-api';
import { visitorDetailsSchema } from 'shared-api/schemas';

/** react-hook-form resolver on the contract's schema: the same rules and words as the server. */
export const visitorResolver: Resolver<VisitorDetailsInput, unknown, VisitorDetails> = async (values) => {
  const result = visitorDetailsSchema.safeParse(values);
  if (result.success) return { values: result.data, errors: {} };
  const errors: FieldErrors<VisitorDetailsInput> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof VisitorDetailsInput;
    if (field && !errors[field]) errors[field] = { type: issue.code, message: issue.message };
  }
  return { values: {}, errors };
};
