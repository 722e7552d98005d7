import { Link, useLocation } from 'react-router-dom';
import { useCatalog } from 'shared-ui';
import { ResetPasswordForm } from '../features/auth';
import { pagesCatalog } from './i18n';
import { AuthPageLayout } from './layouts/FormCard';

/** The token is the path's last segment (`useParams` is not in the router subset the shell shares with the remotes). */
const tokenOf = (pathname: string): string => decodeURIComponent(/\/reset-password\/([^/]+)\/?$/.exec(pathname)?.[1] ?? '');

export function ResetPasswordPage() {
  const { t } = useCatalog(pagesCatalog);
  const token = tokenOf(useLocation().pathname);
  return (
    <AuthPageLayout title={t('resetTitle')}>
      <ResetPasswordForm token={token} intro={<p>{t('resetIntro')}</p>} />
      <p>
        <Link to="/login">{t('backToLogin')}</Link>
      </p>
    </AuthPageLayout>
  );
}
