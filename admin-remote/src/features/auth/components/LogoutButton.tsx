import { useNavigate } from 'react-router-dom';
import { Button, useCatalog } from 'shared-ui';
import { api, removeToken, useAppDispatch } from 'shared-api';
import { useLogoutMutation } from '../api/authApi';
import { authCatalog } from '../i18n';

/** Revokes the token on the server, then forgets it here whatever the server said. */
export function LogoutButton() {
  const { t } = useCatalog(authCatalog);
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [logout, { isLoading }] = useLogoutMutation();

  const onLogout = async () => {
    await logout();
    removeToken();
    // Staff data must not outlive the session in the cache.
    dispatch(api.util.resetApiState());
    navigate('/login', { replace: true });
  };

  return (
    <Button variant="secondary" size="sm" onClick={onLogout} disabled={isLoading}>
      {isLoading ? t('loggingOut') : t('logout')}
    </Button>
  );
}
