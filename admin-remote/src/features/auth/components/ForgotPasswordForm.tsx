import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Stack, useCatalog } from 'shared-ui';
import { FormOutcomeMessage, InputField, type FormOutcome } from 'shared-ui/forms';
import { httpStatus, serverMessage } from 'shared-api';
import { formResolver } from 'shared-api/schemas';
import { AccountMessage, passwordResetRequestBodySchema, type PasswordResetRequestBody, type PasswordResetRequestInput } from 'shared-api/accounts';
import { useRequestPasswordResetMutation } from '../api/accountAuthApi';
import { authCatalog } from '../i18n';
import en from '../locales/en.json';
import { formField } from '../../../lib/formField';
import { SubmitButton } from './SubmitButton';

/** The English text, for tests. */
export const FORGOT_FAILED_MESSAGE = en.forgotFailed;

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const { t } = useCatalog(authCatalog);
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation();
  const [outcome, setOutcome] = useState<FormOutcome>(null);
  const form = useForm<PasswordResetRequestInput, unknown, PasswordResetRequestBody>({
    defaultValues: { email: '' },
    resolver: formResolver(passwordResetRequestBodySchema),
  });
  const { handleSubmit } = form;

  const onSubmit = handleSubmit(async (values) => {
    setOutcome(null);
    const result = await requestReset(values);
    if ('data' in result && result.data !== undefined) {
      setOutcome({ failed: false, text: result.data || AccountMessage.resetRequested });
      return;
    }
    const status = httpStatus(result.error);
    const text = status === 429 || status === 400 ? (serverMessage(result.error) ?? t('forgotFailed')) : t('forgotFailed');
    setOutcome({ failed: true, text });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('forgotForm')}>
      <Stack>
        <InputField label={t('email')} id="forgot-email" type="email" autoComplete="username" {...formField(form, 'email')} />
        <FormOutcomeMessage outcome={outcome} />
        <SubmitButton busy={isLoading} busyLabel={t('sending')}>
          {t('sendResetLink')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
