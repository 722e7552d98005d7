import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Heading, Stack, useCatalog } from 'shared-ui';
import type { User } from 'shared-api';
import { authCatalog } from '../i18n';

/** An admin page (issue 35): a staff member sees who looks after it instead (the API answers them 403 anyway). */
export function RequireAdmin({ user, children }: { user: User; children: ReactNode }) {
  const { t } = useCatalog(authCatalog);
  if (user.role === 'admin') return <>{children}</>;
  return (
    <Stack>
      <Heading level={1}>{t('adminOnlyTitle')}</Heading>
      <p>{t('adminOnlyMessage')}</p>
      <p>
        <Link to="/secured/dashboard">{t('adminOnlyBack')}</Link>
      </p>
    </Stack>
  );
}
