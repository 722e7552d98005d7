import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { serverMessage } from 'shared-api';
import type { PrivacyRequest } from 'shared-api/contract';
import { Button, Inline, Stack, useCatalog, useToast } from 'shared-ui';
import { FormAlert, InputField } from 'shared-ui/forms';
import { useCorrectVisitorMutation } from '../api/privacyApi';
import { privacyCatalog } from '../i18n';
import { personLabel } from '../utils/personLabel';

type Values = { visitorName: string; visitorEmail: string; visitorContactNo: string };

/**
 * Corrects the visitor's name, email or phone on every booking and payment of the person a correction request names
 * (only the fields filled in). Recorded in the audit trail; nothing is mailed.
 */
export function CorrectionForm({ request, onDone }: { request: PrivacyRequest; onDone: () => void }) {
  const { t } = useCatalog(privacyCatalog);
  const toast = useToast();
  const [correct, { isLoading }] = useCorrectVisitorMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const person = personLabel(request);
  const { register, handleSubmit } = useForm<Values>({
    defaultValues: { visitorName: '', visitorEmail: '', visitorContactNo: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    const changes = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== '')) as Partial<Values>;
    if (Object.keys(changes).length === 0) return setFailure(t('correctionEmpty'));
    setFailure(null);
    const who = request.personEmail ? { email: request.personEmail } : { phone: request.personPhone ?? '' };
    const result = await correct({ ...who, requestId: request.id, ...changes });
    if ('error' in result) return setFailure(serverMessage(result.error) ?? t('correctionFailed'));
    toast.success(
      t('corrected', {
        bookings: result.data.bookings,
        payments: result.data.payments,
        entries: result.data.waitlistEntries,
      }),
    );
    onDone();
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('correctionForm', { person })}>
      <Stack>
        <p>{t('correctionIntro', { person })}</p>
        <Inline>
          <InputField label={t('correctName')} id={`correct-name-${request.id}`} {...register('visitorName')} />
          <InputField label={t('correctEmail')} id={`correct-email-${request.id}`} type="email" {...register('visitorEmail')} />
          <InputField label={t('correctPhone')} id={`correct-phone-${request.id}`} type="tel" {...register('visitorContactNo')} />
        </Inline>
        {failure && <FormAlert>{failure}</FormAlert>}
        <Inline>
          <Button type="submit" loading={isLoading}>
            {t('saveCorrection')}
          </Button>
          <Button type="button" variant="secondary" onClick={onDone}>
            {t('cancel')}
          </Button>
        </Inline>
      </Stack>
    </form>
  );
}
