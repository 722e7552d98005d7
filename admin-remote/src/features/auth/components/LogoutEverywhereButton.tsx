import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, useToast } from 'shared-ui';
import { ConfirmDialog } from 'shared-ui/forms';
import { api, removeToken, serverMessage, useAppDispatch } from 'shared-api';
import { useLogoutAllMutation } from '../api/accountAuthApi';

export const LogoutEverywhereText = {
  button: 'Log out everywhere',
  title: 'Log out everywhere?',
  message: 'This ends every session of your account, on this and every other device. You will need to log in again.',
  confirm: 'Log out everywhere',
  failed: 'Could not log out everywhere. Please try again.',
} as const;

/** Ends every session of the signed-in account (after a confirm), then forgets the token here and opens /login. */
export function LogoutEverywhereButton() {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [logoutAll, { isLoading }] = useLogoutAllMutation();

  const onConfirm = async () => {
    const result = await logoutAll();
    if ('error' in result) {
      setOpen(false);
      toast.error(serverMessage(result.error) ?? LogoutEverywhereText.failed);
      return;
    }
    removeToken();
    dispatch(api.util.resetApiState());
    navigate('/login', { replace: true });
  };

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} disabled={isLoading}>
        {LogoutEverywhereText.button}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={LogoutEverywhereText.title}
        message={LogoutEverywhereText.message}
        confirmLabel={LogoutEverywhereText.confirm}
        onConfirm={onConfirm}
        busy={isLoading}
      />
    </>
  );
}
