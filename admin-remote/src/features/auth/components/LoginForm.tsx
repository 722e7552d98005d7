import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { Stack, useCatalog } from 'shared-ui';
import { FormOutcomeMessage, InputField, type FormOutcome } from 'shared-ui/forms';
import { LOGIN_REDIRECT_MS, LOGIN_SUCCESS_SHOWN_MS, httpStatus, serverMessage, setToken, useAppDispatch, type LoginFormValues, type LoginInput } from 'shared-api';
import { formResolver, loginFormSchema } from 'shared-api/schemas';
import { authApi, useLoginMutation } from '../api/authApi';
import { authCatalog } from '../i18n';
import en from '../locales/en.json';
import { formField } from '../../../lib/formField';
import { SubmitButton } from './SubmitButton';

// The English texts, for tests.
export const LOGIN_FAILED_MESSAGE = en.loginFailed;
export const LOGIN_UNAVAILABLE_MESSAGE = en.loginUnavailable;
export const LOGIN_SUCCESS_MESSAGE = en.loginSuccess;

/**
 * `onSignedIn` runs when the login succeeds, while the success shows: the page fetches there what the dashboard needs
 * first (its code, its lists) and draws it; the form itself asks for the current user the secured area needs and hands
 * the page that request. The dashboard opens the spec's 1.5 s after the press of Login (the answer's own time, a
 * deliberately slow password hash, runs inside them), the success having shown at least LOGIN_SUCCESS_SHOWN_MS.
 */
export function LoginForm({ onSignedIn }: { onSignedIn?: (currentUser: Promise<unknown>) => void } = {}) {
  const { t } = useCatalog(authCatalog);
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [login, { isLoading }] = useLoginMutation();
  const [outcome, setOutcome] = useState<FormOutcome>(null);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pressedAt = useRef(0);
  const form = useForm<LoginInput, unknown, LoginFormValues>({
    defaultValues: { email: '', password: '' },
    resolver: formResolver(loginFormSchema),
  });
  const { handleSubmit } = form;

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const onSubmit = handleSubmit(async (values) => {
    setOutcome(null);
    const result = await login(values);
    if ('data' in result && result.data) {
      setToken(result.data.token);
      setOutcome({ failed: false, text: t('loginSuccess') });
      // Forced: a user cached from an earlier session in this tab is not this login's.
      const currentUser = dispatch(authApi.endpoints.currentUser.initiate(undefined, { subscribe: false, forceRefetch: true }));
      onSignedIn?.(currentUser);
      const wait = Math.max(LOGIN_REDIRECT_MS - (Date.now() - pressedAt.current), LOGIN_SUCCESS_SHOWN_MS);
      redirectTimer.current = setTimeout(() => navigate('/secured/dashboard', { replace: true }), wait);
      return;
    }
    const status = httpStatus(result.error);
    // Wrong email and wrong password read the same, so the form never reveals which accounts exist.
    const wrong = status === 401 || status === 400 || status === 404;
    const text = wrong ? t('loginFailed') : (status === 429 && serverMessage(result.error)) || t('loginUnavailable');
    setOutcome({ failed: true, text });
  });

  // After a success the form stays busy until the dashboard opens.
  const busy = isLoading || outcome?.failed === false;
  return (
    <form
      onSubmit={(event) => {
        pressedAt.current = Date.now();
        void onSubmit(event);
      }}
      noValidate
      aria-label={t('loginForm')}
    >
      <Stack>
        <InputField label={t('email')} id="login-email" type="email" autoComplete="username" {...formField(form, 'email')} />
        <InputField label={t('password')} id="login-password" type="password" autoComplete="current-password" {...formField(form, 'password')} />
        <FormOutcomeMessage outcome={outcome} />
        <SubmitButton busy={busy} busyLabel={t('loading')}>
          {t('login')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
