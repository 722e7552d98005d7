import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Stack } from 'shared-ui';
import { Field, Input } from 'shared-ui/forms';
import { EMAIL_PATTERN, REGISTER_PASSWORD_MIN, ValidationMessage } from 'shared-api';
import { useRegisterMutation } from '../api/authApi';
import { httpStatus, serverMessage } from '../api/errors';
import { FormAlert, FormSuccess } from './FormMessages';

type RegisterValues = { email: string; username: string; password: string };

export const REGISTER_REFUSED_MESSAGE = 'Only a logged-in staff member can register a colleague. Please log in first.';
export const REGISTER_FAILED_MESSAGE = 'Registration failed. Please try again.';

export function RegisterForm() {
  const [registerAccount, { isLoading }] = useRegisterMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<RegisterValues>({ defaultValues: { email: '', username: '', password: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    setCreated(null);
    const username = values.username.trim();
    const result = await registerAccount({
      email: values.email.trim(),
      password: values.password,
      ...(username ? { username } : {}),
    });
    if ('data' in result) {
      setCreated(`Account created for ${values.email.trim()}.`);
      reset();
      return;
    }
    const status = httpStatus(result.error);
    const message = serverMessage(result.error);
    if (status === 401 || status === 403) setFailure(message ? `${REGISTER_REFUSED_MESSAGE} (${message})` : REGISTER_REFUSED_MESSAGE);
    else setFailure(message ?? REGISTER_FAILED_MESSAGE);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Register a staff account">
      <Stack>
        <Field label="Email" htmlFor="register-email" error={errors.email?.message}>
          <Input
            id="register-email"
            type="email"
            autoComplete="off"
            {...register('email', {
              required: ValidationMessage.loginEmailRequired,
              pattern: { value: EMAIL_PATTERN, message: ValidationMessage.loginEmailFormat },
            })}
          />
        </Field>
        <Field label="Username (optional)" htmlFor="register-username">
          <Input id="register-username" autoComplete="off" {...register('username')} />
        </Field>
        <Field label="Password" htmlFor="register-password" error={errors.password?.message}>
          <Input
            id="register-password"
            type="password"
            autoComplete="new-password"
            {...register('password', {
              required: ValidationMessage.registerPasswordMin,
              minLength: { value: REGISTER_PASSWORD_MIN, message: ValidationMessage.registerPasswordMin },
            })}
          />
        </Field>
        {failure && <FormAlert>{failure}</FormAlert>}
        {created && <FormSuccess>{created}</FormSuccess>}
        <Button type="submit" variant="primary" fullWidth loading={isLoading}>
          {isLoading ? 'Loading...' : 'Register'}
        </Button>
      </Stack>
    </form>
  );
}
