import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { Button, Stack } from 'shared-ui';
import { Field, Input } from 'shared-ui/forms';
import { httpStatus, serverMessage } from 'shared-api';
import { formResolver } from 'shared-api/schemas';
import {
  AccountMessage,
  resetPasswordFormSchema,
  type ResetPasswordFormInput,
  type ResetPasswordFormValues,
} from 'shared-api/accounts';
import { useConfirmPasswordResetMutation } from '../api/accountAuthApi';
import { FormAlert, FormSuccess } from './FormMessages';

export const RESET_FAILED_MESSAGE = 'The password could not be changed right now. Please try again in a moment.';

/** The new password twice (the register form's rules) for the reset link's token. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [confirmReset, { isLoading }] = useConfirmPasswordResetMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetPasswordFormInput, unknown, ResetPasswordFormValues>({
    defaultValues: { password: '', confirm: '' },
    resolver: formResolver(resetPasswordFormSchema),
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    setFailure(null);
    const result = await confirmReset({ token, password });
    if ('data' in result && result.data !== undefined) {
      setDone(result.data || AccountMessage.resetDone);
      return;
    }
    setFailure(httpStatus(result.error) === 400 ? (serverMessage(result.error) ?? AccountMessage.resetInvalid) : RESET_FAILED_MESSAGE);
  });

  if (done) {
    return (
      <Stack>
        <FormSuccess>{done}</FormSuccess>
        <p>
          <Link to="/login">Go to the login</Link>
        </p>
      </Stack>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Set a new password">
      <Stack>
        <Field label="New password" htmlFor="reset-password" error={errors.password?.message}>
          <Input id="reset-password" type="password" autoComplete="new-password" {...register('password')} />
        </Field>
        <Field label="New password again" htmlFor="reset-confirm" error={errors.confirm?.message}>
          <Input id="reset-confirm" type="password" autoComplete="new-password" {...register('confirm')} />
        </Field>
        {failure && (
          <FormAlert>
            {failure} <Link to="/forgot-password">Ask for a new link</Link>
          </FormAlert>
        )}
        <Button type="submit" variant="primary" fullWidth loading={isLoading}>
          {isLoading ? 'Saving...' : 'Set new password'}
        </Button>
      </Stack>
    </form>
  );
}
