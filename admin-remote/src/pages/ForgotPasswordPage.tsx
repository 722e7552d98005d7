import { Link } from 'react-router-dom';
import { PASSWORD_RESET_MINUTES } from 'shared-api/accounts';
import { styled, useCatalog } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { ForgotPasswordForm } from '../features/auth';
import { pagesCatalog } from './i18n';

const Narrow = styled.div`
  max-width: 28rem;
  margin: ${({ theme }) => theme.space[6]} auto;
`;

export function ForgotPasswordPage() {
  const { t } = useCatalog(pagesCatalog);
  return (
    <Narrow>
      <Card>
        <CardHeader>
          <CardTitle as="h1">{t('forgotTitle')}</CardTitle>
        </CardHeader>
        <CardBody>
          <p>{t('forgotIntro', { minutes: PASSWORD_RESET_MINUTES })}</p>
          <ForgotPasswordForm />
          <p>
            <Link to="/login">{t('backToLogin')}</Link>
          </p>
        </CardBody>
      </Card>
    </Narrow>
  );
}
