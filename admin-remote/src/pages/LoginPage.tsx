import { Link } from 'react-router-dom';
import { useAppDispatch } from 'shared-api';
import { useCatalog } from 'shared-ui';
import { LoginForm } from '../features/auth';
import { prefetchDashboardPage } from '../features/dashboard/prefetch';
import { pagesCatalog } from './i18n';
import { AuthPageLayout } from './layouts/FormCard';

export function LoginPage() {
  const { t } = useCatalog(pagesCatalog);
  const dispatch = useAppDispatch();
  // While the success shows, the dashboard's chunk and the first page of its last view (useDashboardPage's arguments) are fetched.
  const prefetchDashboard = () => {
    void import('./SecuredArea');
    prefetchDashboardPage(dispatch);
  };
  return (
    <AuthPageLayout title={t('loginTitle')}>
      <LoginForm onSignedIn={prefetchDashboard} />
      <p>
        <Link to="/forgot-password">{t('forgotPasswordLink')}</Link>
      </p>
      <p>
        <Link to="/">{t('backToTimetable')}</Link>
      </p>
    </AuthPageLayout>
  );
}
