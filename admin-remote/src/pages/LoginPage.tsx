import { Link } from 'react-router-dom';
import { useAppDispatch } from 'shared-api';
import { useCatalog } from 'shared-ui';
import { LoginForm } from '../features/auth';
import { prefetchDashboardPage } from '../features/dashboard/prefetch';
import { pagesCatalog } from './i18n';
import { AuthPageLayout } from './layouts/FormCard';
import { useDrawSecuredAhead } from './securedAhead';

export function LoginPage() {
  const { t } = useCatalog(pagesCatalog);
  const dispatch = useAppDispatch();
  const drawSecuredAhead = useDrawSecuredAhead();
  // While the success shows: the dashboard's code and the first page of its last view (useDashboardPage's arguments)
  // are fetched, then the dashboard is drawn hidden from them (its hidden effects fetch nothing, so it waits for both).
  const prepareDashboard = (currentUser: Promise<unknown>) => {
    void Promise.all([import(/* webpackChunkName: "secured-area" */ './SecuredArea'), prefetchDashboardPage(dispatch), currentUser]).then(
      drawSecuredAhead,
      () => {},
    );
  };
  return (
    <AuthPageLayout title={t('loginTitle')}>
      <LoginForm onSignedIn={prepareDashboard} />
      <p>
        <Link to="/forgot-password">{t('forgotPasswordLink')}</Link>
      </p>
      <p>
        <Link to="/">{t('backToTimetable')}</Link>
      </p>
    </AuthPageLayout>
  );
}
