import { useCatalog } from 'shared-ui';
import { BreachLog, NewBreachForm } from '../features/breaches';
import { NewRequestForm, PersonData, RequestLog } from '../features/privacy';
import { pagesCatalog } from './i18n';
import { PageSection, StaffPageLayout } from './layouts/StaffPageLayout';

/**
 * /secured/privacy (PDPA): one parent's data for an access or portability request, and the log of access and
 * correction requests with their due days, extensions, answers and corrections, and the breach log; every action audited.
 */
export function PrivacyPage({ currentUserEmail }: { currentUserEmail?: string } = {}) {
  const { t } = useCatalog(pagesCatalog);
  return (
    <StaffPageLayout title="privacyTitle">
      <PageSection id="privacy-person" title={t('privacyPersonTitle')}>
        <PersonData />
      </PageSection>
      <PageSection id="privacy-requests" title={t('privacyRequestsTitle')}>
        <NewRequestForm />
        <RequestLog />
      </PageSection>
      <PageSection id="privacy-breaches" title={t('privacyBreachesTitle')}>
        <p>{t('privacyBreachesIntro')}</p>
        <NewBreachForm />
        <BreachLog currentUserEmail={currentUserEmail} />
      </PageSection>
    </StaffPageLayout>
  );
}
