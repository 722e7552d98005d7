import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Stack, useCatalog } from 'shared-ui';
import { Choice, ChoiceGroup, FormOutcomeMessage, InputField, type FormOutcome } from 'shared-ui/forms';
import { httpStatus, serverMessage, serverRule, type RegisterBody, type RegisterInput } from 'shared-api';
import { formResolver, registerBodySchema, STAFF_ROLES } from 'shared-api/schemas';
import { useRegisterMutation } from '../api/authApi';
import { authCatalog } from '../i18n';
import en from '../locales/en.json';
import { formField } from '../../../lib/formField';
import { SubmitButton } from './SubmitButton';

// The English texts, for tests.
export const REGISTER_REFUSED_MESSAGE = en.registerRefused;
export const REGISTER_FAILED_MESSAGE = en.registerFailed;
export const COMMON_PASSWORD_MESSAGE = en.commonPassword;

/** Whether a failed call is the server's refusal of one of the most common passwords (`reason.rule`). */
export const isCommonPasswordRefusal = (error: Parameters<typeof serverRule>[0]): boolean => serverRule(error) === 'commonPassword';

/** `onCreated` runs after an account was created (the Colleagues page refreshes its list). */
export function RegisterForm({ onCreated }: { onCreated?: () => void } = {}) {
  const { t } = useCatalog(authCatalog);
  const [registerAccount, { isLoading }] = useRegisterMutation();
  const [outcome, setOutcome] = useState<FormOutcome>(null);
  const form = useForm<RegisterInput, unknown, RegisterBody>({
    defaultValues: { email: '', username: '', password: '', role: 'staff' },
    resolver: formResolver(registerBodySchema),
  });
  const { handleSubmit, reset, getValues } = form;

  const onSubmit = handleSubmit(async (values) => {
    setOutcome(null);
    const { username, ...account } = values;
    const result = await registerAccount({ ...account, ...(username ? { username } : {}) });
    if ('data' in result) {
      setOutcome({ failed: false, text: t('accountCreated', { email: getValues('email').trim() }) });
      reset();
      onCreated?.();
      return;
    }
    // Said under the password field, in the page's language (the server's message is English).
    if (isCommonPasswordRefusal(result.error)) {
      form.setError('password', { type: 'commonPassword', message: t('commonPassword') }, { shouldFocus: true });
      return;
    }
    const status = httpStatus(result.error);
    const message = serverMessage(result.error);
    const refused = status === 401 || status === 403;
    const text = refused ? (message ? t('registerRefusedWithReason', { reason: message }) : t('registerRefused')) : (message ?? t('registerFailed'));
    setOutcome({ failed: true, text });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('registerForm')}>
      <Stack>
        <InputField label={t('email')} id="register-email" type="email" autoComplete="off" {...formField(form, 'email')} />
        <InputField label={t('username')} id="register-username" autoComplete="off" {...formField(form, 'username')} />
        <InputField label={t('password')} id="register-password" type="password" autoComplete="new-password" {...formField(form, 'password')} />
        <ChoiceGroup>
          <legend>{t('role')}</legend>
          {STAFF_ROLES.map((role) => (
            <Choice key={role}>
              <input type="radio" value={role} {...form.register('role')} />
              {t(role === 'admin' ? 'roleAdmin' : 'roleStaff')}
            </Choice>
          ))}
        </ChoiceGroup>
        <FormOutcomeMessage outcome={outcome} />
        <SubmitButton busy={isLoading} busyLabel={t('loading')}>
          {t('register')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
