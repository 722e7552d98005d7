import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Stack, useCatalog } from 'shared-ui';
import { Field, Input } from 'shared-ui/forms';
import { httpStatus, serverMessage, type RegisterBody, type RegisterInput } from 'shared-api';
import { formResolver, registerBodySchema } from 'shared-api/schemas';
import { useRegisterMutation } from '../api/authApi';
import { authCatalog } from '../i18n';
import en from '../locales/en.json';
import { FormAlert, FormSuccess } from './FormMessages';

// The English texts, for tests.
export const REGISTER_REFUSED_MESSAGE = en.registerRefused;
export const REGISTER_FAILED_MESSAGE = en.registerFailed;

/** `onCreated` runs after an account was created (the Colleagues page refreshes its list). */
export function RegisterForm({ onCreated }: { onCreated?: () => void } = {}) {
  const { t } = useCatalog(authCatalog);
  const [registerAccount, { isLoading }] = useRegisterMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    getValues,
    formState: { errors },
  } = useForm<RegisterInput, unknown, RegisterBody>({ defaultValues: { email: '', username: '', password: '' }, resolver: formResolver(registerBodySchema) });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    setCreated(null);
    const { username, ...account } = values;
    const result = await registerAccount({ ...account, ...(username ? { username } : {}) });
    if ('data' in result) {
      setCreated(t('accountCreated', { email: getValues('email').trim() }));
      reset();
      onCreated?.();
      return;
    }
    const status = httpStatus(result.error);
    const message = serverMessage(result.error);
    if (status === 401 || status === 403) setFailure(message ? t('registerRefusedWithReason', { reason: message }) : t('registerRefused'));
    else setFailure(message ?? t('registerFailed'));
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('registerForm')}>
      <Stack>
        <Field label={t('email')} htmlFor="register-email" error={errors.email?.message}>
          <Input
            id="register-email"
            type="email"
            autoComplete="off"
            {...register('email')}
          />
        </Field>
        <Field label={t('username')} htmlFor="register-username">
          <Input id="register-username" autoComplete="off" {...register('username')} />
        </Field>
        <Field label={t('password')} htmlFor="register-password" error={errors.password?.message}>
          <Input
            id="register-password"
            type="password"
            autoComplete="new-password"
            {...register('password')}
          />
        </Field>
        {failure && <FormAlert>{failure}</FormAlert>}
        {created && <FormSuccess>{created}</FormSuccess>}
        <Button type="submit" variant="primary" fullWidth loading={isLoading}>
          {isLoading ? t('loading') : t('register')}
        </Button>
      </Stack>
    </form>
  );
}
