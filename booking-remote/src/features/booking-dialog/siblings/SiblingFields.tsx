import { useEffect } from 'react';
import { useFormContext, type FieldError } from 'react-hook-form';
import { isSchoolYear } from 'shared-api/schools';
import { styled, useCatalog } from 'shared-ui';
import { Field, Input, Select } from 'shared-ui/forms';
import { fieldErrorText, SchoolOptions, YearOptions, type SchoolChoice } from '../../../lib/visitor-fields/VisitorFields';
import { visitorCatalog } from '../../../lib/visitor-fields/i18n';
import { dialogCatalog } from '../i18n';
import type { DetailsFormInput } from './detailsResolver';

const Group = styled.fieldset`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  margin: 0;
  padding: ${({ theme }) => theme.space[3]} 0 0;
  border: 0;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  min-width: 0;
  legend {
    padding: 0;
    font-weight: ${({ theme }) => theme.fontWeights.bold};
  }
`;

type Props = { index: number; schools: SchoolChoice[] };

/** One brother or sister booked with the first child: name, school and the year applied for (the first child's rules). */
export function SiblingFields({ index, schools }: Props) {
  const { t } = useCatalog(visitorCatalog);
  const words = useCatalog(dialogCatalog).t;
  const {
    register,
    watch,
    getValues,
    setValue,
    formState: { errors },
  } = useFormContext<DetailsFormInput>();
  const path = `siblings.${index}` as const;
  // Each school takes its own years: another school clears a year it does not take.
  const school = watch(`${path}.selectedSchool`) ?? '';
  useEffect(() => {
    const year = getValues(`${path}.childYear`);
    if (year && !isSchoolYear(school, year)) setValue(`${path}.childYear`, '');
  }, [school, path, getValues, setValue]);
  const fieldErrors = (errors.siblings as unknown as (Record<string, FieldError> | undefined)[] | undefined)?.[index];
  const error = (field: 'childName' | 'selectedSchool' | 'childYear') => fieldErrorText(fieldErrors?.[field], t);
  const id = (field: string) => `sibling-${index + 2}-${field}`;
  return (
    <Group>
      <legend>{words('childNumber', { number: index + 2 })}</legend>
      <Field label={t('childName')} htmlFor={id('childName')} error={error('childName')}>
        <Input type="text" autoComplete="off" {...register(`${path}.childName`)} />
      </Field>
      <Field label={t('selectedSchool')} htmlFor={id('selectedSchool')} error={error('selectedSchool')}>
        <Select {...register(`${path}.selectedSchool`)}>
          <SchoolOptions schools={schools} />
        </Select>
      </Field>
      <Field label={t('childYear')} htmlFor={id('childYear')} error={error('childYear')}>
        <Select {...register(`${path}.childYear`)}>
          <YearOptions school={school} />
        </Select>
      </Field>
    </Group>
  );
}
