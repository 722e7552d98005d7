import { useForm } from 'react-hook-form';
import { formatRM, type VisitorDetails, type VisitorDetailsInput } from 'shared-api';
import { BookingMessage } from 'shared-api/messages';
import { Stack, useToast } from 'shared-ui';
import { Field, Input, Select } from 'shared-ui/forms';
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
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<VisitorDetailsInput, unknown, VisitorDetails>({
    resolver: visitorResolver,
    defaultValues: { visitorName: '', visitorEmail: '', visitorContactNo: '', selectedSchool: '', ...defaultValues },
  });

  const onInvalid = (fieldErrors: typeof errors) => {
    for (const message of validationToastMessages(fieldErrors)) toast.error(message);
  };

  return (
    <form id={DETAILS_FORM_ID} noValidate onSubmit={handleSubmit(onValid, onInvalid)}>
      <Stack gap={4}>
        <Field label="Visitor Name" htmlFor="visitorName" error={errors.visitorName?.message}>
          <Input type="text" autoComplete="name" {...register('visitorName')} />
        </Field>
        <Field label="Email Address" htmlFor="visitorEmail" error={errors.visitorEmail?.message}>
          <Input type="email" autoComplete="email" inputMode="email" {...register('visitorEmail')} />
        </Field>
        <Field label="Contact Number" htmlFor="visitorContactNo" error={errors.visitorContactNo?.message}>
          <Input type="tel" autoComplete="tel" inputMode="tel" placeholder="01X-XXX XXXX" {...register('visitorContactNo')} />
        </Field>
        <Field
          label="Selected School"
          htmlFor="selectedSchool"
          error={errors.selectedSchool?.message}
          hint={pricingLoading ? 'Loading fees...' : pricingFailed ? `${BookingMessage.pricingFailed}. Showing the standard fees.` : undefined}
        >
          <Select {...register('selectedSchool')}>
            <option value="">Select a school</option>
            {schools.map((school) => (
              <option key={school.name} value={school.name}>
                {`${school.name} – ${formatRM(school.feeSen)}`}
              </option>
            ))}
          </Select>
        </Field>
      </Stack>
    </form>
  );
}
