import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { serverMessage } from 'shared-api';
import type { PrivacyRequest } from 'shared-api/contract';
import { Button, Inline, Stack, useCatalog, useToast } from 'shared-ui';
import { FormAlert, InputField } from 'shared-ui/forms';
import { formatPhone } from '../../../lib/format';
import { useCorrectVisitorMutation, usePersonQuery } from '../api/privacyApi';
import { privacyCatalog } from '../i18n';
import { personLabel } from '../utils/personLabel';

type Values = { visitorName: string; visitorEmail: string; visitorContactNo: string };
const EMPTY: Values = { visitorName: '', visitorEmail: '', visitorContactNo: '' };
/** A phone is the same number however it is spaced ('012-345 6789' is '0123456789'). */
const sameValue = (field: keyof Values, a: string, b: string) =>
  field === 'visitorContactNo' ? a.replace(/[\s().-]/g, '') === b.replace(/[\s().-]/g, '') : a.trim() === b.trim();

/**
 * Corrects the visitor's name, email or phone on every booking and payment of the person a correction request names.
 * The form opens with the details held now (the person's look-up, audited as any) and sends only what was changed.
 * Recorded in the audit trail; nothing is mailed.
 */
export function CorrectionForm({ request, onDone }: { request: PrivacyRequest; onDone: () => void }) {
  const { t } = useCatalog(privacyCatalog);
  const toast = useToast();
  const [correct, { isLoading }] = useCorrectVisitorMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const person = personLabel(request);
  const current = usePersonQuery(request.personEmail ? { by: 'email', value: request.personEmail } : { by: 'phone', value: request.personPhone ?? '' });
  const summary = current.data?.summary;
  // The details held now: the most recent name, email and phone the records give.
  const held: Values = summary
    ? { visitorName: summary.names[0] ?? '', visitorEmail: summary.emails[0] ?? '', visitorContactNo: formatPhone(summary.phones[0]) ?? '' }
    : EMPTY;
  const { register, handleSubmit, reset } = useForm<Values>({ defaultValues: held });
  useEffect(() => {
    if (summary) reset(held);
    // Once, when the details held arrive: what staff type afterwards stays.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [summary]);

  const onSubmit = handleSubmit(async (values) => {
    const changes = Object.fromEntries((Object.keys(values) as (keyof Values)[]).filter((field) => !sameValue(field, values[field], held[field])).map((field) => [field, values[field].trim()])) as Partial<Values>;
    if (Object.keys(changes).length === 0) return setFailure(t('nothingChanged'));
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
        {current.isLoading && <p role="status">{t('currentLoading')}</p>}
        {current.isError && <p role="status">{t('currentFailed')}</p>}
        <Inline>
          <InputField label={t('correctName')} id={`correct-name-${request.id}`} {...register('visitorName')} />
          <InputField label={t('correctEmail')} id={`correct-email-${request.id}`} type="email" {...register('visitorEmail')} />
          <InputField label={t('correctPhone')} id={`correct-phone-${request.id}`} type="tel" {...register('visitorContactNo')} />
        </Inline>
        {failure && <FormAlert>{failure}</FormAlert>}
        <Inline>
          <Button type="submit" loading={isLoading} disabled={current.isLoading}>
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
