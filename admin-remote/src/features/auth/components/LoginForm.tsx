import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { Button, Stack } from 'shared-ui';
import { Field, Input } from 'shared-ui/forms';
import { LOGIN_REDIRECT_MS, httpStatus, serverMessage, setToken, type LoginFormValues, type LoginInput } from 'shared-api';
import { formResolver, loginFormSchema } from 'shared-api/schemas';
import { useLoginMutation } from '../api/authApi';
import { FormAlert, FormSuccess } from './FormMessages';

export const LOGIN_FAILED_MESSAGE = 'The email or password is incorrect. Please try again.';
export const LOGIN_UNAVAILABLE_MESSAGE = 'Login is unavailable right now. Please try again in a moment.';
export const LOGIN_SUCCESS_MESSAGE = 'Login successful. Opening the dashboard...';

export function LoginForm() {
  const navigate = useNavigate();
  const [login, { isLoading }] = useLoginMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [succeeded, setSucceeded] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput, unknown, LoginFormValues>({ defaultValues: { email: '', password: '' }, resolver: formResolver(loginFormSchema) });

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const result = await login(values);
    if ('data' in result && result.data) {
      setToken(result.data.token);
      setSucceeded(true);
      redirectTimer.current = setTimeout(() => navigate('/secured/dashboard', { replace: true }), LOGIN_REDIRECT_MS);
      return;
    }
    const status = httpStatus(result.error);
    // Wrong email and wrong password read the same, so the form never reveals which accounts exist.
    if (status === 401 || status === 400 || status === 404) setFailure(LOGIN_FAILED_MESSAGE);
    else if (status === 429) setFailure(serverMessage(result.error) ?? LOGIN_UNAVAILABLE_MESSAGE);
    else setFailure(LOGIN_UNAVAILABLE_MESSAGE);
  });

  const busy = isLoading || succeeded;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Staff login">
      <Stack>
        <Field label="Email" htmlFor="login-email" error={errors.email?.message}>
          <Input
            id="login-email"
            type="email"
            autoComplete="username"
            {...register('email')}
          />
        </Field>
        <Field label="Password" htmlFor="login-password" error={errors.password?.message}>
          <Input id="login-password" type="password" autoComplete="current-password" {...register('password')} />
        </Field>
        {failure && <FormAlert>{failure}</FormAlert>}
        {succeeded && <FormSuccess>{LOGIN_SUCCESS_MESSAGE}</FormSuccess>}
        <Button type="submit" variant="primary" fullWidth loading={busy}>
          {busy ? 'Loading...' : 'Login'}
        </Button>
      </Stack>
    </form>
  );
}
