import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { serverMessage, todayInMY } from 'shared-api';
import { Button, Inline, Stack, useCatalog, useToast } from 'shared-ui';
import { Field, Input, Select } from 'shared-ui/forms';
import { useLogPrivacyRequestMutation } from '../api/privacyApi';
import { privacyCatalog } from '../i18n';

type Values = { kind: 'access' | 'correction'; by: 'email' | 'phone'; person: string; receivedOn: string; note: string };

/** Record a new access or correction request: who asks (email or phone), the GMT+8 day it arrived, a note. */
export function NewRequestForm() {
  const { t } = useCatalog(privacyCatalog);
  const toast = useToast();
  const [logRequest, { isLoading }] = useLogPrivacyRequestMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors },
  } = useForm<Values>({ defaultValues: { kind: 'access', by: 'email', person: '', receivedOn: todayInMY(), note: '' } });
  const by = watch('by');

  const onSubmit = handleSubmit(async ({ kind, by: field, person, receivedOn, note }) => {
    setFailure(null);
    const result = await logRequest({ kind, [field]: person.trim(), receivedOn, note: note.trim() });
    if ('error' in result) return setFailure(serverMessage(result.error) ?? t('logFailed'));
    toast.success(t('logged'));
    reset({ kind, by: field, person: '', receivedOn: todayInMY(), note: '' });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('newRequest')}>
      <Stack>
        <Inline>
          <Field label={t('kind')} htmlFor="request-kind">
            <Select id="request-kind" {...register('kind')}>
              <option value="access">{t('kind_access')}</option>
              <option value="correction">{t('kind_correction')}</option>
            </Select>
          </Field>
          <Field label={t('requestBy')} htmlFor="request-by">
            <Select id="request-by" {...register('by')}>
              <option value="email">{t('byEmail')}</option>
              <option value="phone">{t('byPhone')}</option>
            </Select>
          </Field>
          <Field label={t('requestPerson')} htmlFor="request-person" error={errors.person?.message}>
            <Input id="request-person" type={by === 'email' ? 'email' : 'tel'} {...register('person', { validate: (v) => v.trim() !== '' || t('valueRequired') })} />
          </Field>
          <Field label={t('receivedOn')} htmlFor="request-received" error={errors.receivedOn?.message}>
            <Input id="request-received" type="date" max={todayInMY()} {...register('receivedOn', { required: t('receivedRequired') })} />
          </Field>
        </Inline>
        <Field label={t('note')} htmlFor="request-note">
          <Input id="request-note" {...register('note')} />
        </Field>
        {failure && <p role="alert">{failure}</p>}
        <div>
          <Button type="submit" loading={isLoading} disabled={isLoading}>
            {t('logRequest')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
