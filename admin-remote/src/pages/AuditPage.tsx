import { Link } from 'react-router-dom';
import { Heading, Stack, useCatalog } from 'shared-ui';
import { AuditTrail } from '../features/audit';
import { pagesCatalog } from './i18n';

/** /secured/audit: who did what and when on the staff side (and parents' changes), read only. */
export function AuditPage() {
  const { t } = useCatalog(pagesCatalog);
  return (
    <Stack>
      <Heading level={1}>{t('auditTitle')}</Heading>
      <p>
        <Link to="/secured/dashboard">{t('backToDashboard')}</Link>
      </p>
      <AuditTrail />
    </Stack>
  );
}
