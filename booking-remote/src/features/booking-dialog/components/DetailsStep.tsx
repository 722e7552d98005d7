import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { formatRM, schoolName, type ConsentInput, type VisitorDetails, type VisitorDetailsInput } from 'shared-api';
import { currentNoticeVersion } from 'shared-api/privacy';
import { isSchoolYear, schoolYearName, schoolYears } from 'shared-api/schools';
import { MAX_VISIBLE_TOASTS, Stack, useCatalog, useToast } from 'shared-ui';
import { Field, Input, Select } from 'shared-ui/forms';
import { dialogCatalog } from '../i18n';
import { validationText } from '../utils/dialogText';
import { validationToastMessages } from '../utils/validationToasts';
import { visitorResolver } from '../utils/visitorResolver';
import { CONSENT_ID, PrivacyConsent } from '../../../lib/privacy-consent/PrivacyConsent';

export const DETAILS_FORM_ID = 'booking-details-form';

export type SchoolOption = { name: string; feeSen: number };

type Props = {
  schools: SchoolOption[];
  pricingLoading: boolean;
  /** Server pricing failed: the options show the configured standard fees. */
  pricingFailed?: boolean;
  defaultValues?: Partial<VisitorDetailsInput>;
  /** The parent already agreed (coming back from the summary): the box stays ticked. */
  consented?: boolean;
  onValid: (values: VisitorDetails, consent: ConsentInput) => void;
};

/** Step 1: the visitor's details, the child's, the school and the year applied for, validated by the contract's rules on submit. */
export function DetailsStep({ schools, pricingLoading, pricingFailed = false, defaultValues, consented: alreadyConsented = false, onValid }: Props) {
  const toast = useToast();
  const { t, locale } = useCatalog(dialogCatalog);
  const {
    register,
    handleSubmit,
    watch,
    getValues,
    setValue,
    formState: { errors },
  } = useForm<VisitorDetailsInput, unknown, VisitorDetails>({
    resolver: visitorResolver,
    defaultValues: {
      visitorName: '',
      visitorEmail: '',
      visitorContactNo: '',
      childName: '',
      selectedSchool: '',
      childYear: '',
      ...defaultValues,
    },
  });

  // The rules' toasts of the last refused submit: gone once the parent submits again (they would speak of mistakes
  // already fixed, over the summary).
  const ruleToasts = useRef<string[]>([]);
  const clearRuleToasts = () => ruleToasts.current.splice(0).forEach((id) => toast.dismiss(id));
  // Each school takes its own years: another school clears a year it does not take.
  const school = watch('selectedSchool');
  const years = schoolYears(school);
  useEffect(() => {
    const year = getValues('childYear');
    if (year && !isSchoolYear(school, year)) setValue('childYear', '');
  }, [school, getValues, setValue]);

  const onInvalid = (fieldErrors: typeof errors) => {
    clearRuleToasts();
    // The first rules in the form's order: the toast stack keeps the last few, and the first invalid field has the focus.
    for (const message of validationToastMessages(fieldErrors).slice(0, MAX_VISIBLE_TOASTS)) ruleToasts.current.push(toast.error(validationText(message, t)));
  };
  // The consent is asked beside the form's fields but is not one of the visitor's details (the contract's schema).
  const [consented, setConsented] = useState(alreadyConsented);
  const [consentMissing, setConsentMissing] = useState(false);
  const onValidDetails = (values: VisitorDetails) => {
    clearRuleToasts();
    if (!consented) {
      ruleToasts.current.push(toast.error(t('consentRequired')));
      document.getElementById(CONSENT_ID)?.focus();
      return;
    }
    // The version and language of the notice this page shows: the server records them (and refuses an outdated one).
    onValid(values, { noticeVersion: currentNoticeVersion(), language: locale });
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    setConsentMissing(!consented);
    return handleSubmit(onValidDetails, onInvalid)(event);
  };

  return (
    <form id={DETAILS_FORM_ID} noValidate onSubmit={submit}>
      <Stack gap={4}>
        <Field label={t('visitorName')} htmlFor="visitorName" error={validationText(errors.visitorName?.message, t)}>
          <Input type="text" autoComplete="name" {...register('visitorName')} />
        </Field>
        <Field label={t('emailAddress')} htmlFor="visitorEmail" error={validationText(errors.visitorEmail?.message, t)}>
          <Input type="email" autoComplete="email" inputMode="email" {...register('visitorEmail')} />
        </Field>
        <Field label={t('contactNumber')} htmlFor="visitorContactNo" error={validationText(errors.visitorContactNo?.message, t)}>
          <Input type="tel" autoComplete="tel" inputMode="tel" placeholder={t('contactPlaceholder')} {...register('visitorContactNo')} />
        </Field>
        <Field label={t('childName')} htmlFor="childName" error={validationText(errors.childName?.message, t)}>
          <Input type="text" autoComplete="off" {...register('childName')} />
        </Field>
        <Field
          label={t('selectedSchool')}
          htmlFor="selectedSchool"
          error={validationText(errors.selectedSchool?.message, t)}
          hint={pricingLoading ? t('loadingFees') : pricingFailed ? t('pricingFailedHint') : undefined}
        >
          <Select {...register('selectedSchool')}>
            <option value="">{t('selectSchool')}</option>
            {/* The value stays the school's English name (its key in requests); the parent reads it in their language. */}
            {schools.map((option) => (
              <option key={option.name} value={option.name}>
                {t('schoolOption', { school: schoolName(option.name, locale), fee: formatRM(option.feeSen, locale) })}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t('childYear')} htmlFor="childYear" error={validationText(errors.childYear?.message, t)}>
          <Select {...register('childYear')}>
            <option value="">{years.length > 0 ? t('selectYear') : t('selectSchoolFirst')}</option>
            {/* As the school: the value is the year's English name, the key staff and the database read. */}
            {years.map((year) => (
              <option key={year.name} value={year.name}>
                {schoolYearName(school, year.name, locale)}
              </option>
            ))}
          </Select>
        </Field>
        <PrivacyConsent
          checked={consented}
          onCheckedChange={(checked) => {
            setConsented(checked);
            if (checked) setConsentMissing(false);
          }}
          error={consentMissing ? t('consentRequired') : undefined}
        />
      </Stack>
    </form>
  );
}
