import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { serverMessage, todayInMY } from 'shared-api';
import { Button, Inline, Stack, useCatalog, useToast } from 'shared-ui';
import { FormAlert, InputField, SelectField } from 'shared-ui/forms';
import { useLogPrivacyRequestMutation } from '../api/privacyApi';
import { privacyCatalog } from '../i18n';
import { PersonKeyOptions, personInputType } from './PersonKeyOptions';
import { formField } from '../../../lib/formField';

type Values = {
  kind: 'access' | 'correction';
  by: 'email' | 'phone';
  person: string;
  receivedOn: string;
  note: string;
};

/** Record a new access or correction request: who asks (email or phone), the GMT+8 day it arrived, a note. */
export function NewRequestForm() {
  const { t } = useCatalog(privacyCatalog);
  const toast = useToast();
  const [logRequest, { isLoading }] = useLogPrivacyRequestMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    defaultValues: { kind: 'access', by: 'email', person: '', receivedOn: todayInMY(), note: '' },
  });
  const { handleSubmit, reset, watch } = form;
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
          <SelectField label={t('kind')} id="request-kind" {...formField(form, 'kind')}>
            <option value="access">{t('kind_access')}</option>
            <option value="correction">{t('kind_correction')}</option>
          </SelectField>
          <SelectField label={t('requestBy')} id="request-by" {...formField(form, 'by')}>
            <PersonKeyOptions />
          </SelectField>
          <InputField
            label={t('requestPerson')}
            id="request-person"
            type={personInputType(by)}
            {...formField(form, 'person', { validate: (v) => v.trim() !== '' || t('valueRequired') })}
          />
          <InputField
            label={t('receivedOn')}
            id="request-received"
            type="date"
            max={todayInMY()}
            {...formField(form, 'receivedOn', { required: t('receivedRequired') })}
          />
        </Inline>
        <InputField label={t('note')} id="request-note" {...formField(form, 'note')} />
        {failure && <FormAlert>{failure}</FormAlert>}
        <div>
          <Button type="submit" loading={isLoading}>
            {t('logRequest')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
