import { Link } from 'react-router-dom';
import { styled, useCatalog } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { LoginForm } from '../features/auth';
import { pagesCatalog } from './i18n';

const Narrow = styled.div`
  max-width: 28rem;
  margin: ${({ theme }) => theme.space[6]} auto;
`;

export function LoginPage() {
  const { t } = useCatalog(pagesCatalog);
  return (
    <>
      <Narrow>
        <Card>
          <CardHeader>
            <CardTitle as="h1">{t('loginTitle')}</CardTitle>
          </CardHeader>
          <CardBody>
            <LoginForm />
            <p>
              <Link to="/forgot-password">{t('forgotPasswordLink')}</Link>
            </p>
            <p>
              <Link to="/">{t('backToTimetable')}</Link>
            </p>
          </CardBody>
        </Card>
      </Narrow>
    </>
  );
}
