import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { Stack, useCatalog } from 'shared-ui';
import { FormAlert, FormSuccess, InputField } from 'shared-ui/forms';
import { httpStatus, serverMessage } from 'shared-api';
import { formResolver } from 'shared-api/schemas';
import { AccountMessage, resetPasswordFormSchema, type ResetPasswordFormInput, type ResetPasswordFormValues } from 'shared-api/accounts';
import { useCheckPasswordResetQuery, useConfirmPasswordResetMutation } from '../api/accountAuthApi';
import { authCatalog } from '../i18n';
import en from '../locales/en.json';
import { formField } from '../../../lib/formField';
import { isCommonPasswordRefusal } from './RegisterForm';
import { SubmitButton } from './SubmitButton';

/** The English text, for tests. */
export const RESET_FAILED_MESSAGE = en.resetFailed;

/**
 * The reset link's page: whether the link still works is asked first, so a used or expired one says so before anyone
 * types; a working one gets `intro` and the new password twice (the register form's rules). When the check cannot be
 * made (network), the form shows and setting the password says.
 */
export function ResetPasswordForm({ token, intro }: { token: string; intro?: ReactNode }) {
  const { t } = useCatalog(authCatalog);
  const check = useCheckPasswordResetQuery({ token }, { skip: !token });
  if (!token || (check.isError && httpStatus(check.error) === 400)) {
    return (
      <FormAlert>
        {(check.isError && serverMessage(check.error)) || AccountMessage.resetInvalid} <Link to="/forgot-password">{t('askNewLink')}</Link>
      </FormAlert>
    );
  }
  if (check.isLoading) return <p role="status">{t('checkingLink')}</p>;
  return <NewPasswordForm token={token} intro={intro} />;
}

function NewPasswordForm({ token, intro }: { token: string; intro?: ReactNode }) {
  const { t } = useCatalog(authCatalog);
  const [confirmReset, { isLoading }] = useConfirmPasswordResetMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<ResetPasswordFormInput, unknown, ResetPasswordFormValues>({
    defaultValues: { password: '', confirm: '' },
    resolver: formResolver(resetPasswordFormSchema),
  });
  const { handleSubmit } = form;

  const onSubmit = handleSubmit(async ({ password }) => {
    setFailure(null);
    const result = await confirmReset({ token, password });
    if ('data' in result && result.data !== undefined) {
      setDone(result.data || AccountMessage.resetDone);
      return;
    }
    // Said under the new password, in the page's language; the link still works, so no new one is needed.
    if (isCommonPasswordRefusal(result.error)) {
      form.setError('password', { type: 'commonPassword', message: t('commonPassword') }, { shouldFocus: true });
      return;
    }
    setFailure(httpStatus(result.error) === 400 ? (serverMessage(result.error) ?? AccountMessage.resetInvalid) : t('resetFailed'));
  });

  if (done) {
    return (
      <Stack>
        <FormSuccess>{done}</FormSuccess>
        <p>
          <Link to="/login">{t('goToLogin')}</Link>
        </p>
      </Stack>
    );
  }
  return (
    <>
      {intro}
      <form onSubmit={onSubmit} noValidate aria-label={t('resetForm')}>
        <Stack>
          <InputField label={t('newPassword')} id="reset-password" type="password" autoComplete="new-password" {...formField(form, 'password')} />
          <InputField label={t('newPasswordAgain')} id="reset-confirm" type="password" autoComplete="new-password" {...formField(form, 'confirm')} />
          {failure && (
            <FormAlert>
              {failure} <Link to="/forgot-password">{t('askNewLink')}</Link>
            </FormAlert>
          )}
          <SubmitButton busy={isLoading} busyLabel={t('saving')}>
            {t('setNewPassword')}
          </SubmitButton>
        </Stack>
      </form>
    </>
  );
}
