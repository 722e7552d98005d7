import { useEffect, type ReactNode } from 'react';
import { useFormContext, type FieldError } from 'react-hook-form';
import type { VisitorDetailsInput } from 'shared-api';
import { isSchoolYear, schoolYearName, schoolYears } from 'shared-api/schools';
import { useCatalog } from 'shared-ui';
import { Field, Input, Select } from 'shared-ui/forms';
import { ValidationMessage } from 'shared-api/messages';
import { isVisitorRule, visitorCatalog, type VisitorRule, type VisitorTranslate } from './i18n';

/** The fields as a form starts them: empty. */
export const EMPTY_VISITOR_DETAILS: VisitorDetailsInput = {
  visitorName: '',
  visitorEmail: '',
  visitorContactNo: '',
  childName: '',
  selectedSchool: '',
  childYear: '',
};

/** A school in the list: its key (the English name, what requests carry) and what the parent reads. */
export type SchoolChoice = { name: string; label: string };

// An empty field breaks the rule its value must meet: said as that rule (spec section 5's toast texts), inline and in
// the toast alike, so the two never disagree.
const ruleOfEmpty: Partial<Record<string, VisitorRule>> = {
  nameRequired: 'nameTooShort',
  emailRequired: 'emailInvalid',
  contactRequired: 'phoneInvalid',
  childNameRequired: 'childNameTooShort',
};

/** The rule a field's error is said as: an empty field's is the rule it breaks, any other its own. */
export const ruleShown = (error: FieldError): FieldError => {
  const rule = ruleOfEmpty[error.type];
  return rule ? { ...error, type: rule, message: ValidationMessage[rule] } : error;
};

/** A field's error in the page's language: the contract rule it broke (the resolver's `type`), else its words as they came. */
export function fieldErrorText(error: FieldError, t: VisitorTranslate): string;
export function fieldErrorText(error: FieldError | undefined, t: VisitorTranslate): string | undefined;
export function fieldErrorText(error: FieldError | undefined, t: VisitorTranslate): string | undefined {
  if (!error) return undefined;
  const shown = ruleShown(error);
  return isVisitorRule(shown.type) ? t(shown.type) : (shown.message ?? shown.type);
}

/** A school list's options (a child's school: the first child's and each sibling's). */
export function SchoolOptions({ schools }: { schools: SchoolChoice[] }) {
  const { t } = useCatalog(visitorCatalog);
  return (
    <>
      <option value="">{t('selectSchool')}</option>
      {/* The value stays the school's English name (its key in requests); the parent reads it in their language. */}
      {schools.map((option) => (
        <option key={option.name} value={option.name}>
          {option.label}
        </option>
      ))}
    </>
  );
}

/** The years a school takes, as options (empty until a school is chosen). */
export function YearOptions({ school }: { school: string }) {
  const { t, locale } = useCatalog(visitorCatalog);
  const years = schoolYears(school);
  return (
    <>
      <option value="">{years.length > 0 ? t('selectYear') : t('selectSchoolFirst')}</option>
      {/* As the school: the value is the year's English name, the key staff and the database read. */}
      {years.map((year) => (
        <option key={year.name} value={year.name}>
          {schoolYearName(school, year.name, locale)}
        </option>
      ))}
    </>
  );
}

type Props = {
  schools: SchoolChoice[];
  /** Under the school list (fees loading, or the standard fees shown). */
  schoolHint?: string;
  /** Right under the contact number (the WhatsApp opt-in, which is about that number). */
  afterContact?: ReactNode;
};

/**
 * The visitor's name, email and contact number, the child's name, the school and the year applied for: the fields of
 * the booking form and of the waitlist form, inside a react-hook-form `FormProvider` checked by `visitorResolver`.
 */
export function VisitorFields({ schools, schoolHint, afterContact }: Props) {
  const { t } = useCatalog(visitorCatalog);
  const {
    register,
    watch,
    getValues,
    setValue,
    formState: { errors },
  } = useFormContext<VisitorDetailsInput>();
  // Each school takes its own years: another school clears a year it does not take.
  const school = watch('selectedSchool');
  useEffect(() => {
    const year = getValues('childYear');
    if (year && !isSchoolYear(school, year)) setValue('childYear', '');
  }, [school, getValues, setValue]);
  const error = (field: keyof VisitorDetailsInput) => fieldErrorText(errors[field], t);
  return (
    <>
      <Field label={t('visitorName')} htmlFor="visitorName" error={error('visitorName')}>
        <Input type="text" autoComplete="name" {...register('visitorName')} />
      </Field>
      <Field label={t('emailAddress')} htmlFor="visitorEmail" error={error('visitorEmail')}>
        <Input type="email" autoComplete="email" inputMode="email" {...register('visitorEmail')} />
      </Field>
      <Field label={t('contactNumber')} htmlFor="visitorContactNo" error={error('visitorContactNo')}>
        <Input type="tel" autoComplete="tel" inputMode="tel" placeholder={t('contactPlaceholder')} {...register('visitorContactNo')} />
      </Field>
      {afterContact}
      <Field label={t('childName')} htmlFor="childName" error={error('childName')}>
        <Input type="text" autoComplete="off" {...register('childName')} />
      </Field>
      <Field label={t('selectedSchool')} htmlFor="selectedSchool" error={error('selectedSchool')} hint={schoolHint}>
        <Select {...register('selectedSchool')}>
          <SchoolOptions schools={schools} />
        </Select>
      </Field>
      <Field label={t('childYear')} htmlFor="childYear" error={error('childYear')}>
        <Select {...register('childYear')}>
          <YearOptions school={school} />
        </Select>
      </Field>
    </>
  );
}
