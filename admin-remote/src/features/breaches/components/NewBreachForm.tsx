import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { brand, serverMessage, todayInMY } from 'shared-api';
import { Button, Inline, Stack, styled, useCatalog, useToast } from 'shared-ui';
import { Field, Input, Select } from 'shared-ui/forms';
import { useLogBreachMutation } from '../api/breachesApi';
import { breachesCatalog } from '../i18n';

const TextArea = styled.textarea`
  width: 100%;
  min-height: 4.5em;
  padding: ${({ theme }) => theme.space[2]} ${({ theme }) => theme.space[3]};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.md};
  font: inherit;
`;

type Values = {
  foundAt: string;
  whatHappened: string;
  dataAffected: string;
  whatHappenedMs: string;
  dataAffectedMs: string;
  whatHappenedZh: string;
  dataAffectedZh: string;
  bookedFrom: string;
  bookedTo: string;
  school: string;
};

/** Log a breach: when it was found (GMT+8), what happened, which data, and who it touches (a period and/or a school). */
export function NewBreachForm() {
  const { t } = useCatalog(breachesCatalog);
  const toast = useToast();
  const [logBreach, { isLoading }] = useLogBreachMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const empty: Values = { foundAt: '', whatHappened: '', dataAffected: '', whatHappenedMs: '', dataAffectedMs: '', whatHappenedZh: '', dataAffectedZh: '', bookedFrom: '', bookedTo: '', school: '' };
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<Values>({ defaultValues: empty });
  const required = { validate: (v: string) => v.trim() !== '' || t('textRequired') };

  const onSubmit = handleSubmit(async (v) => {
    setFailure(null);
    const optional = (text: string) => (text.trim() ? text.trim() : undefined);
    const result = await logBreach({
      // The form's time is Malaysia's (GMT+8, no daylight saving).
      foundAt: `${v.foundAt}:00+08:00`,
      whatHappened: v.whatHappened.trim(),
      dataAffected: v.dataAffected.trim(),
      whatHappenedMs: optional(v.whatHappenedMs),
      dataAffectedMs: optional(v.dataAffectedMs),
      whatHappenedZh: optional(v.whatHappenedZh),
      dataAffectedZh: optional(v.dataAffectedZh),
      bookedFrom: optional(v.bookedFrom),
      bookedTo: optional(v.bookedTo),
      school: optional(v.school),
    });
    if ('error' in result) return setFailure(serverMessage(result.error) ?? t('logFailed'));
    toast.success(t('logged', { affected: result.data.affected }));
    reset(empty);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('newBreach')}>
      <Stack>
        <Field label={t('foundAt')} htmlFor="breach-found" error={errors.foundAt?.message}>
          <Input id="breach-found" type="datetime-local" max={`${todayInMY()}T23:59`} {...register('foundAt', { required: t('foundRequired') })} />
        </Field>
        <Field label={t('whatHappened')} htmlFor="breach-what" error={errors.whatHappened?.message}>
          <TextArea id="breach-what" aria-invalid={errors.whatHappened ? true : undefined} {...register('whatHappened', required)} />
        </Field>
        <Field label={t('dataAffected')} htmlFor="breach-data" error={errors.dataAffected?.message}>
          <TextArea id="breach-data" aria-invalid={errors.dataAffected ? true : undefined} {...register('dataAffected', required)} />
        </Field>
        <details>
          <summary>{t('translations')}</summary>
          <Stack>
            <Field label={t('whatHappenedMs')} htmlFor="breach-what-ms">
              <TextArea id="breach-what-ms" lang="ms" {...register('whatHappenedMs')} />
            </Field>
            <Field label={t('dataAffectedMs')} htmlFor="breach-data-ms">
              <TextArea id="breach-data-ms" lang="ms" {...register('dataAffectedMs')} />
            </Field>
            <Field label={t('whatHappenedZh')} htmlFor="breach-what-zh">
              <TextArea id="breach-what-zh" lang="zh-Hans" {...register('whatHappenedZh')} />
            </Field>
            <Field label={t('dataAffectedZh')} htmlFor="breach-data-zh">
              <TextArea id="breach-data-zh" lang="zh-Hans" {...register('dataAffectedZh')} />
            </Field>
          </Stack>
        </details>
        <p>{t('scopeHint')}</p>
        <Inline>
          <Field label={t('bookedFrom')} htmlFor="breach-from">
            <Input id="breach-from" type="date" {...register('bookedFrom')} />
          </Field>
          <Field label={t('bookedTo')} htmlFor="breach-to">
            <Input id="breach-to" type="date" {...register('bookedTo')} />
          </Field>
          <Field label={t('school')} htmlFor="breach-school">
            <Select id="breach-school" {...register('school')}>
              <option value="">{t('allSchools')}</option>
              {brand.schools.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.name}
                </option>
              ))}
            </Select>
          </Field>
        </Inline>
        {failure && <p role="alert">{failure}</p>}
        <div>
          <Button type="submit" loading={isLoading} disabled={isLoading}>
            {t('logBreach')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
