import { Link } from 'react-router-dom';
import { useCatalog } from 'shared-ui';
import { getToken } from 'shared-api';
import { RegisterForm, RequireAdmin, RequireStaff, SecondFactorGate } from '../features/auth';
import { richText } from '../lib/i18n';
import { pagesCatalog } from './i18n';
import { AuthPageLayout } from './layouts/FormCard';

export function RegisterPage() {
  const { t } = useCatalog(pagesCatalog);
  const loggedIn = Boolean(getToken());
  return (
    <AuthPageLayout title={t('registerTitle')}>
      <p>
        {loggedIn
          ? t('registerIntro')
          : richText(
              t,
              'registerLoginFirst',
              {},
              { link: (children) => <Link to="/login">{children}</Link> },
            )}
      </p>
      {/* Only a signed-in member can add a colleague: no form to fill in and be refused. */}
      {loggedIn && (
        <RequireStaff>
          {(user) => (
            <RequireAdmin user={user}>
              <SecondFactorGate>
                <RegisterForm />
              </SecondFactorGate>
            </RequireAdmin>
          )}
        </RequireStaff>
      )}
      {loggedIn && (
        <p>
          <Link to="/secured/dashboard">{t('backToDashboard')}</Link>
        </p>
      )}
    </AuthPageLayout>
  );
}
