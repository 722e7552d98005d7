import type { FieldError, FieldErrors } from 'react-hook-form';
import type { VisitorDetailsInput } from 'shared-api';
import { ruleShown } from '../../../lib/visitor-fields/VisitorFields';

const fieldOrder = ['visitorName', 'visitorEmail', 'visitorContactNo', 'childName', 'selectedSchool', 'childYear'] as const;

/** The errors a refused submit toasts, in the form's field order, each as the rule it is said as inline (ruleShown). */
export function validationToastErrors(errors: FieldErrors<VisitorDetailsInput>): FieldError[] {
  return fieldOrder.flatMap((field) => {
    const error = errors[field];
    return error ? [ruleShown(error)] : [];
  });
}
