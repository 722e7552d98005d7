import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, useCatalog, useToast } from 'shared-ui';
import { ConfirmDialog } from 'shared-ui/forms';
import { api, removeToken, serverMessage, useAppDispatch } from 'shared-api';
import { useLogoutAllMutation } from '../api/accountAuthApi';
import { authCatalog } from '../i18n';
import en from '../locales/en.json';

/** The English texts, for tests. */
export const LogoutEverywhereText = {
  button: en.logoutEverywhere,
  title: en.logoutEverywhereTitle,
  message: en.logoutEverywhereMessage,
  confirm: en.logoutEverywhereConfirm,
  failed: en.logoutEverywhereFailed,
} as const;

/** Ends every session of the signed-in account (after a confirm), then forgets the token here and opens /login. */
export function LogoutEverywhereButton() {
  const { t } = useCatalog(authCatalog);
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [logoutAll, { isLoading }] = useLogoutAllMutation();

  const onConfirm = async () => {
    const result = await logoutAll();
    if ('error' in result) {
      setOpen(false);
      toast.error(serverMessage(result.error) ?? t('logoutEverywhereFailed'));
      return;
    }
    removeToken();
    dispatch(api.util.resetApiState());
    navigate('/login', { replace: true });
  };

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} disabled={isLoading}>
        {t('logoutEverywhere')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('logoutEverywhereTitle')}
        message={t('logoutEverywhereMessage')}
        confirmLabel={t('logoutEverywhereConfirm')}
        onConfirm={onConfirm}
        busy={isLoading}
      />
    </>
  );
}
