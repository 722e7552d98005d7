import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Stack, useCatalog } from 'shared-ui';
import { Field, Input } from 'shared-ui/forms';
import { httpStatus, serverMessage } from 'shared-api';
import { formResolver } from 'shared-api/schemas';
import {
  AccountMessage,
  passwordResetRequestBodySchema,
  type PasswordResetRequestBody,
  type PasswordResetRequestInput,
} from 'shared-api/accounts';
import { useRequestPasswordResetMutation } from '../api/accountAuthApi';
import { authCatalog } from '../i18n';
import en from '../locales/en.json';
import { FormAlert, FormSuccess } from './FormMessages';

/** The English text, for tests. */
export const FORGOT_FAILED_MESSAGE = en.forgotFailed;

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const { t } = useCatalog(authCatalog);
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<PasswordResetRequestInput, unknown, PasswordResetRequestBody>({
    defaultValues: { email: '' },
    resolver: formResolver(passwordResetRequestBodySchema),
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    setSent(null);
    const result = await requestReset(values);
    if ('data' in result && result.data !== undefined) {
      setSent(result.data || AccountMessage.resetRequested);
      return;
    }
    const status = httpStatus(result.error);
    setFailure(status === 429 || status === 400 ? (serverMessage(result.error) ?? t('forgotFailed')) : t('forgotFailed'));
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('forgotForm')}>
      <Stack>
        <Field label={t('email')} htmlFor="forgot-email" error={errors.email?.message}>
          <Input id="forgot-email" type="email" autoComplete="username" {...register('email')} />
        </Field>
        {failure && <FormAlert>{failure}</FormAlert>}
        {sent && <FormSuccess>{sent}</FormSuccess>}
        <Button type="submit" variant="primary" fullWidth loading={isLoading}>
          {isLoading ? t('sending') : t('sendResetLink')}
        </Button>
      </Stack>
    </form>
  );
}
