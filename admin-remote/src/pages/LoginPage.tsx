import { Link } from 'react-router-dom';
import { useCatalog } from 'shared-ui';
import { LoginForm } from '../features/auth';
import { pagesCatalog } from './i18n';
import { AuthPageLayout } from './layouts/FormCard';

export function LoginPage() {
  const { t } = useCatalog(pagesCatalog);
  return (
    <AuthPageLayout title={t('loginTitle')}>
      <LoginForm />
      <p>
        <Link to="/forgot-password">{t('forgotPasswordLink')}</Link>
      </p>
      <p>
        <Link to="/">{t('backToTimetable')}</Link>
      </p>
    </AuthPageLayout>
  );
}
