import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { brand, serverMessage, todayInMY } from 'shared-api';
import { Button, Inline, Stack, useCatalog, useToast } from 'shared-ui';
import { FormAlert, InputField, SelectField, TextAreaField } from 'shared-ui/forms';
import { useLogBreachMutation } from '../api/breachesApi';
import { breachesCatalog } from '../i18n';
import { formField } from '../../../lib/formField';

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

/** The Malay and Chinese words of what happened and which data, for the notice in each parent's language. */
const TRANSLATIONS = [
  { field: 'whatHappenedMs', id: 'breach-what-ms', lang: 'ms' },
  { field: 'dataAffectedMs', id: 'breach-data-ms', lang: 'ms' },
  { field: 'whatHappenedZh', id: 'breach-what-zh', lang: 'zh-Hans' },
  { field: 'dataAffectedZh', id: 'breach-data-zh', lang: 'zh-Hans' },
] as const;

/** Log a breach: when it was found (GMT+8), what happened, which data, and who it touches (a period and/or a school). */
export function NewBreachForm() {
  const { t } = useCatalog(breachesCatalog);
  const toast = useToast();
  const [logBreach, { isLoading }] = useLogBreachMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const empty: Values = {
    foundAt: '',
    whatHappened: '',
    dataAffected: '',
    whatHappenedMs: '',
    dataAffectedMs: '',
    whatHappenedZh: '',
    dataAffectedZh: '',
    bookedFrom: '',
    bookedTo: '',
    school: '',
  };
  const form = useForm<Values>({ defaultValues: empty });
  const { handleSubmit, reset } = form;
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
        <InputField
          label={t('foundAt')}
          id="breach-found"
          type="datetime-local"
          max={`${todayInMY()}T23:59`}
          {...formField(form, 'foundAt', { required: t('foundRequired') })}
        />
        <TextAreaField label={t('whatHappened')} id="breach-what" {...formField(form, 'whatHappened', required)} />
        <TextAreaField label={t('dataAffected')} id="breach-data" {...formField(form, 'dataAffected', required)} />
        <details>
          <summary>{t('translations')}</summary>
          <Stack>
            {TRANSLATIONS.map(({ field, id, lang }) => (
              <TextAreaField key={field} label={t(field)} id={id} lang={lang} {...formField(form, field)} />
            ))}
          </Stack>
        </details>
        <p>{t('scopeHint')}</p>
        <Inline>
          <InputField label={t('bookedFrom')} id="breach-from" type="date" {...formField(form, 'bookedFrom')} />
          <InputField label={t('bookedTo')} id="breach-to" type="date" {...formField(form, 'bookedTo')} />
          <SelectField label={t('school')} id="breach-school" {...formField(form, 'school')}>
            <option value="">{t('allSchools')}</option>
            {brand.schools.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
              </option>
            ))}
          </SelectField>
        </Inline>
        {failure && <FormAlert>{failure}</FormAlert>}
        <div>
          <Button type="submit" loading={isLoading}>
            {t('logBreach')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
