import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Stack } from 'shared-ui';
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
import { FormAlert, FormSuccess } from './FormMessages';

export const FORGOT_FAILED_MESSAGE = 'The reset link could not be requested right now. Please try again in a moment.';

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
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
    setFailure(status === 429 || status === 400 ? (serverMessage(result.error) ?? FORGOT_FAILED_MESSAGE) : FORGOT_FAILED_MESSAGE);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Forgot password">
      <Stack>
        <Field label="Email" htmlFor="forgot-email" error={errors.email?.message}>
          <Input id="forgot-email" type="email" autoComplete="username" {...register('email')} />
        </Field>
        {failure && <FormAlert>{failure}</FormAlert>}
        {sent && <FormSuccess>{sent}</FormSuccess>}
        <Button type="submit" variant="primary" fullWidth loading={isLoading}>
          {isLoading ? 'Sending...' : 'Send reset link'}
        </Button>
      </Stack>
    </form>
  );
}
