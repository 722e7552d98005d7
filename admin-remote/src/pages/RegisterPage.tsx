import { Link } from 'react-router-dom';
import { styled, useCatalog } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { getToken } from 'shared-api';
import { RegisterForm } from '../features/auth';
import { richText } from '../lib/i18n';
import { pagesCatalog } from './i18n';

const Narrow = styled.div`
  max-width: 28rem;
  margin: ${({ theme }) => theme.space[6]} auto;
`;

export function RegisterPage() {
  const { t } = useCatalog(pagesCatalog);
  const loggedIn = Boolean(getToken());
  return (
    <>
      <Narrow>
        <Card>
          <CardHeader>
            <CardTitle as="h1">{t('registerTitle')}</CardTitle>
          </CardHeader>
          <CardBody>
            <p>
              {loggedIn
                ? t('registerIntro')
                : richText(t, 'registerLoginFirst', {}, { link: (children) => <Link to="/login">{children}</Link> })}
            </p>
            {/* Only a signed-in member can add a colleague: no form to fill in and be refused. */}
            {loggedIn && <RegisterForm />}
            {loggedIn && (
              <p>
                <Link to="/secured/dashboard">{t('backToDashboard')}</Link>
              </p>
            )}
          </CardBody>
        </Card>
      </Narrow>
    </>
  );
}
