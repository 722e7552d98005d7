import { useForm } from 'react-hook-form';
import { formatRM, schoolName, type VisitorDetails, type VisitorDetailsInput } from 'shared-api';
import { Stack, useCatalog, useToast } from 'shared-ui';
import { Field, Input, Select } from 'shared-ui/forms';
import { dialogCatalog } from '../i18n';
import { validationText } from '../utils/dialogText';
import { validationToastMessages } from '../utils/validationToasts';
import { visitorResolver } from '../utils/visitorResolver';

export const DETAILS_FORM_ID = 'booking-details-form';

export type SchoolOption = { name: string; feeSen: number };

type Props = {
  schools: SchoolOption[];
  pricingLoading: boolean;
  /** Server pricing failed: the options show the configured standard fees. */
  pricingFailed?: boolean;
  defaultValues?: Partial<VisitorDetailsInput>;
  onValid: (values: VisitorDetails) => void;
};

/** Step 1: the visitor's details and the school, validated by the contract's rules on submit. */
export function DetailsStep({ schools, pricingLoading, pricingFailed = false, defaultValues, onValid }: Props) {
  const toast = useToast();
  const { t, locale } = useCatalog(dialogCatalog);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<VisitorDetailsInput, unknown, VisitorDetails>({
    resolver: visitorResolver,
    defaultValues: { visitorName: '', visitorEmail: '', visitorContactNo: '', selectedSchool: '', ...defaultValues },
  });

  const onInvalid = (fieldErrors: typeof errors) => {
    for (const message of validationToastMessages(fieldErrors)) toast.error(validationText(message, t));
  };

  return (
    <form id={DETAILS_FORM_ID} noValidate onSubmit={handleSubmit(onValid, onInvalid)}>
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
        <Field
          label={t('selectedSchool')}
          htmlFor="selectedSchool"
          error={validationText(errors.selectedSchool?.message, t)}
          hint={pricingLoading ? t('loadingFees') : pricingFailed ? t('pricingFailedHint') : undefined}
        >
          <Select {...register('selectedSchool')}>
            <option value="">{t('selectSchool')}</option>
            {/* The value stays the school's English name (its key in requests); the parent reads it in their language. */}
            {schools.map((school) => (
              <option key={school.name} value={school.name}>
                {t('schoolOption', { school: schoolName(school.name, locale), fee: formatRM(school.feeSen, locale) })}
              </option>
            ))}
          </Select>
        </Field>
      </Stack>
    </form>
  );
}
