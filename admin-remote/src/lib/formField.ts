import { get, type FieldPath, type FieldValues, type RegisterOptions, type UseFormReturn } from 'react-hook-form';

/**
 * One field of a react-hook-form form as shared-ui's InputField, SelectField and TextAreaField take it: registered
 * (name, ref, change and blur) and showing its validation message, so no form wires the two apart.
 */
export function formField<T extends FieldValues, C, O extends FieldValues, N extends FieldPath<T>>(
  form: UseFormReturn<T, C, O>,
  name: N,
  options?: RegisterOptions<T, N>,
) {
  const error: { message?: unknown } | undefined = get(form.formState.errors, name);
  const message = error?.message;
  return { ...form.register(name, options), error: typeof message === 'string' ? message : undefined };
}
