import { Link, useLocation } from 'react-router-dom';
import { styled, useCatalog } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { ResetPasswordForm } from '../features/auth';
import { pagesCatalog } from './i18n';

const Narrow = styled.div`
  max-width: 28rem;
  margin: ${({ theme }) => theme.space[6]} auto;
`;

/** The token is the path's last segment (`useParams` is not in the router subset the shell shares with the remotes). */
const tokenOf = (pathname: string): string => decodeURIComponent(/\/reset-password\/([^/]+)\/?$/.exec(pathname)?.[1] ?? '');

export function ResetPasswordPage() {
  const { t } = useCatalog(pagesCatalog);
  const token = tokenOf(useLocation().pathname);
  return (
    <Narrow>
      <Card>
        <CardHeader>
          <CardTitle as="h1">{t('resetTitle')}</CardTitle>
        </CardHeader>
        <CardBody>
          <ResetPasswordForm token={token} intro={<p>{t('resetIntro')}</p>} />
          <p>
            <Link to="/login">{t('backToLogin')}</Link>
          </p>
        </CardBody>
      </Card>
    </Narrow>
  );
}
