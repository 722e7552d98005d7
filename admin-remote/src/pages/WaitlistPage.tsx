import { Link } from 'react-router-dom';
import { Heading, Stack, useCatalog } from 'shared-ui';
import { Waitlist } from '../features/waitlist';
import { pagesCatalog } from './i18n';

/** /secured/waitlist: each school's waitlist in order, its offers, and staff's moves and removals (with a reason). */
export function WaitlistPage() {
  const { t } = useCatalog(pagesCatalog);
  return (
    <Stack>
      <Heading level={1}>{t('waitlistTitle')}</Heading>
      <p>
        <Link to="/secured/dashboard">{t('backToDashboard')}</Link>
      </p>
      <Waitlist />
    </Stack>
  );
}
