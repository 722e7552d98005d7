import { useEffect, type ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { Spinner, useCatalog } from 'shared-ui';
import { configureApi, getToken, removeToken, apiConfig, type User } from 'shared-api';
import { useCurrentUserQuery } from '../api/authApi';
import { authCatalog } from '../i18n';

type RequireStaffProps = { children: (user: User) => ReactNode };

/** The secured area's gate: no token goes to /login; a token must resolve to the current user. */
export function RequireStaff({ children }: RequireStaffProps) {
  const { t } = useCatalog(authCatalog);
  const token = getToken();
  const navigate = useNavigate();
  const { data: user, isError } = useCurrentUserQuery(undefined, { skip: !token });

  // While staff pages are mounted, a 401 moves within the router instead of reloading the page.
  useEffect(() => {
    const previous = apiConfig.onUnauthorized;
    configureApi({ onUnauthorized: () => navigate('/login', { replace: true }) });
    return () => configureApi({ onUnauthorized: previous });
  }, [navigate]);

  useEffect(() => {
    if (isError) removeToken();
  }, [isError]);

  if (!token || isError) return <Navigate to="/login" replace />;
  if (!user) return <Spinner label={t('checkingSession')} />;
  return <>{children(user)}</>;
}
