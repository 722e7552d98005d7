import type { FieldError, FieldErrors } from 'react-hook-form';
import type { VisitorDetailsInput } from 'shared-api';
import { ValidationMessage } from 'shared-api/messages';
import type { VisitorRule } from '../../../lib/visitor-fields/i18n';

// On submit each broken rule is toasted (spec section 5); an empty field's inline message is "... is required", its
// toast is the rule it breaks.
const toastFor: Partial<Record<string, VisitorRule>> = {
  nameRequired: 'nameTooShort',
  emailRequired: 'emailInvalid',
  contactRequired: 'phoneInvalid',
  childNameRequired: 'childNameTooShort',
};

const fieldOrder = ['visitorName', 'visitorEmail', 'visitorContactNo', 'childName', 'selectedSchool', 'childYear'] as const;

/** The errors a refused submit toasts, in the form's field order (an empty field's is the rule it breaks). */
export function validationToastErrors(errors: FieldErrors<VisitorDetailsInput>): FieldError[] {
  return fieldOrder.flatMap((field) => {
    const error = errors[field];
    if (!error) return [];
    const rule = toastFor[error.type];
    return [rule ? { ...error, type: rule, message: ValidationMessage[rule] } : error];
  });
}
