import { ValidationMessage as V } from 'shared-api/messages';
import type { FieldErrors } from 'react-hook-form';

// On submit each broken rule is toasted with the rule's words (spec section 5); an empty field's
// inline message is "... is required", its toast is the rule it breaks.
const toastFor: Record<string, string> = {
  [V.nameRequired]: V.nameTooShort,
  [V.emailRequired]: V.emailInvalid,
  [V.contactRequired]: V.phoneInvalid,
  [V.childNameRequired]: V.childNameTooShort,
};

const fieldOrder = ['visitorName', 'visitorEmail', 'visitorContactNo', 'childName', 'selectedSchool', 'childYear'] as const;

/** The toast messages for a failed submit, in the form's field order. */
export function validationToastMessages(errors: FieldErrors): string[] {
  return fieldOrder
    .map((field) => errors[field]?.message)
    .filter((message): message is string => typeof message === 'string')
    .map((message) => toastFor[message] ?? message);
}
