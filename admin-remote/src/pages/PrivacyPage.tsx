import { Link } from 'react-router-dom';
import { Heading, Stack, useCatalog } from 'shared-ui';
import { BreachLog, NewBreachForm } from '../features/breaches';
import { NewRequestForm, PersonData, RequestLog } from '../features/privacy';
import { pagesCatalog } from './i18n';

/**
 * /secured/privacy (PDPA): one parent's data for an access or portability request, and the log of access and
 * correction requests with their due days, extensions, answers and corrections, and the breach log; every action audited.
 */
export function PrivacyPage() {
  const { t } = useCatalog(pagesCatalog);
  return (
    <Stack>
      <Heading level={1}>{t('privacyTitle')}</Heading>
      <p>
        <Link to="/secured/dashboard">{t('backToDashboard')}</Link>
      </p>
      <section aria-labelledby="privacy-person">
        <Stack>
          <Heading level={2} id="privacy-person">
            {t('privacyPersonTitle')}
          </Heading>
          <PersonData />
        </Stack>
      </section>
      <section aria-labelledby="privacy-requests">
        <Stack>
          <Heading level={2} id="privacy-requests">
            {t('privacyRequestsTitle')}
          </Heading>
          <NewRequestForm />
          <RequestLog />
        </Stack>
      </section>
      <section aria-labelledby="privacy-breaches">
        <Stack>
          <Heading level={2} id="privacy-breaches">
            {t('privacyBreachesTitle')}
          </Heading>
          <p>{t('privacyBreachesIntro')}</p>
          <NewBreachForm />
          <BreachLog />
        </Stack>
      </section>
    </Stack>
  );
}
