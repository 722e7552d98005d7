import { Link } from 'react-router-dom';
import { PASSWORD_RESET_MINUTES } from 'shared-api/accounts';
import { useCatalog } from 'shared-ui';
import { ForgotPasswordForm } from '../features/auth';
import { pagesCatalog } from './i18n';
import { AuthPageLayout } from './layouts/FormCard';

export function ForgotPasswordPage() {
  const { t } = useCatalog(pagesCatalog);
  return (
    <AuthPageLayout title={t('forgotTitle')}>
      <p>{t('forgotIntro', { minutes: PASSWORD_RESET_MINUTES })}</p>
      <ForgotPasswordForm />
      <p>
        <Link to="/login">{t('backToLogin')}</Link>
      </p>
    </AuthPageLayout>
  );
}
