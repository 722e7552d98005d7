import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Heading, Stack, styled, useCatalog } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { RegisterForm } from '../features/auth';
import { ColleaguesList } from '../features/colleagues';
import { pagesCatalog } from './i18n';

const Narrow = styled.div`
  max-width: 28rem;
`;

/** /secured/colleagues: every staff account, Disable, and the register form to add one (composed here). */
export function ColleaguesPage({ currentUserId }: { currentUserId: number }) {
  const { t } = useCatalog(pagesCatalog);
  const [added, setAdded] = useState(0);
  return (
    <Stack>
      <Heading level={1}>{t('colleaguesTitle')}</Heading>
      <p>
        <Link to="/secured/dashboard">{t('backToDashboard')}</Link>
      </p>
      <ColleaguesList currentUserId={currentUserId} refreshKey={added} />
      <Narrow>
        <Card>
          <CardHeader>
            <CardTitle as="h2">{t('addColleagueTitle')}</CardTitle>
          </CardHeader>
          <CardBody>
            <RegisterForm onCreated={() => setAdded((n) => n + 1)} />
          </CardBody>
        </Card>
      </Narrow>
    </Stack>
  );
}
