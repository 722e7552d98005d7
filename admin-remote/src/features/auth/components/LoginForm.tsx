import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { Button, Stack, useCatalog } from 'shared-ui';
import { Field, Input } from 'shared-ui/forms';
import { LOGIN_REDIRECT_MS, httpStatus, serverMessage, setToken, type LoginFormValues, type LoginInput } from 'shared-api';
import { formResolver, loginFormSchema } from 'shared-api/schemas';
import { useLoginMutation } from '../api/authApi';
import { authCatalog } from '../i18n';
import en from '../locales/en.json';
import { FormAlert, FormSuccess } from './FormMessages';

// The English texts, for tests.
export const LOGIN_FAILED_MESSAGE = en.loginFailed;
export const LOGIN_UNAVAILABLE_MESSAGE = en.loginUnavailable;
export const LOGIN_SUCCESS_MESSAGE = en.loginSuccess;

export function LoginForm() {
  const { t } = useCatalog(authCatalog);
  const navigate = useNavigate();
  const [login, { isLoading }] = useLoginMutation();
  const [failure, setFailure] = useState<'failed' | 'unavailable' | { server: string } | null>(null);
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
    if (status === 401 || status === 400 || status === 404) setFailure('failed');
    else if (status === 429) {
      const message = serverMessage(result.error);
      setFailure(message ? { server: message } : 'unavailable');
    }
    else setFailure('unavailable');
  });

  const busy = isLoading || succeeded;
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('loginForm')}>
      <Stack>
        <Field label={t('email')} htmlFor="login-email" error={errors.email?.message}>
          <Input
            id="login-email"
            type="email"
            autoComplete="username"
            {...register('email')}
          />
        </Field>
        <Field label={t('password')} htmlFor="login-password" error={errors.password?.message}>
          <Input id="login-password" type="password" autoComplete="current-password" {...register('password')} />
        </Field>
        {failure && (
          <FormAlert>{failure === 'failed' ? t('loginFailed') : failure === 'unavailable' ? t('loginUnavailable') : failure.server}</FormAlert>
        )}
        {succeeded && <FormSuccess>{t('loginSuccess')}</FormSuccess>}
        <Button type="submit" variant="primary" fullWidth loading={busy}>
          {busy ? t('loading') : t('login')}
        </Button>
      </Stack>
    </form>
  );
}
