import { useEffect, type ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { ErrorPanel, Spinner, useCatalog } from 'shared-ui';
import { configureApi, getToken, httpStatus, removeToken, apiConfig, type User } from 'shared-api';
import { useCurrentUserQuery } from '../api/authApi';
import { authCatalog } from '../i18n';

type RequireStaffProps = { children: (user: User) => ReactNode };

/**
 * The secured area's gate: no token goes to /login; a token must resolve to the current user. Only the server's 401
 * ends the session here: a 500 or no answer keeps the token and says the server cannot be reached, with Retry (a
 * deliberate change from the spec, which drops the token on any failure: docs/ARCHITECTURE.md).
 */
export function RequireStaff({ children }: RequireStaffProps) {
  const { t } = useCatalog(authCatalog);
  const token = getToken();
  const navigate = useNavigate();
  const current = useCurrentUserQuery(undefined, { skip: !token });
  const { data: user } = current;
  const isError = current.isError && httpStatus(current.error) === 401;

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
  if (current.isError && !user)
    return <ErrorPanel title={t('sessionUnreachableTitle')} message={t('sessionUnreachable')} onRetry={() => void current.refetch()} retryLabel={t('secondFactorRetry')} />;
  if (!user) return <Spinner label={t('checkingSession')} />;
  return <>{children(user)}</>;
}
