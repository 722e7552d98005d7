import type { ComponentPropsWithRef, ReactNode } from 'react';
import { WAITLIST_PARTS_OF_DAY } from 'shared-api/waitlist';
import { styled } from 'shared-ui';
import { Field, Input, Select } from 'shared-ui/forms';
import { useWaitlistWords } from '../i18n';
import { dayText } from '../utils/words';

/** Two date fields side by side where there is room, one above the other on a phone. */
const DateRow = styled.div`
  display: grid;
  align-items: end;
  grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr));
  gap: ${({ theme }) => theme.space[3]};
`;

type Props = {
  /** The days the date fields offer (today to the furthest day the waitlist takes). */
  limits: { min: string; max: string };
  /** The days chosen, said in words under their fields. */
  values: { fromDate?: string; toDate?: string };
  /** A dates problem, in the page's words, under the field it is about. */
  errors: { fromDate?: string; toDate?: string };
  fromDate: ComponentPropsWithRef<'input'>;
  toDate: ComponentPropsWithRef<'input'>;
  partOfDay: ComponentPropsWithRef<'select'>;
  /** Between the dates and the time of day. */
  between?: ReactNode;
};

/** The days a parent can come and the time of day (the join form, and changing them on the entry's page). */
export function DatesFields({ limits, values, errors, fromDate, toDate, partOfDay, between }: Props) {
  const { t, locale } = useWaitlistWords();
  // The browser's date field writes the day as its own locale does (12/04/2026 can be read two ways): say it in words.
  const spelled = (date: string | undefined) => (date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? dayText(date, locale) : undefined);
  return (
    <>
      <DateRow>
        <Field label={t('fromDate')} htmlFor="fromDate" hint={spelled(values.fromDate)} error={errors.fromDate}>
          <Input type="date" min={limits.min} max={limits.max} {...fromDate} />
        </Field>
        <Field label={t('toDate')} htmlFor="toDate" hint={spelled(values.toDate)} error={errors.toDate}>
          <Input type="date" min={limits.min} max={limits.max} {...toDate} />
        </Field>
      </DateRow>
      {between}
      <Field label={t('partOfDay')} htmlFor="partOfDay">
        <Select {...partOfDay}>
          {WAITLIST_PARTS_OF_DAY.map((part) => (
            <option key={part} value={part}>
              {t(`partOfDay.${part}`)}
            </option>
          ))}
        </Select>
      </Field>
    </>
  );
}
