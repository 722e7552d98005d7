import { todayInMY } from 'shared-api';
import { useCatalog } from 'shared-ui';
import { formatDay } from '../../../lib/format';
import { useRequestsComingDueQuery } from '../api/privacyApi';
import { privacyCatalog } from '../i18n';
import { personLabel } from '../utils/personLabel';

/** How far ahead the dashboard looks for access and correction requests to answer. */
export const DUE_WITHIN_DAYS = 7;

/** The dashboard's panel of open PDPA requests due within a week (overdue first), from the request log. */
export function RequestsComingDue() {
  const { t } = useCatalog(privacyCatalog);
  const due = useRequestsComingDueQuery(DUE_WITHIN_DAYS);
  const today = todayInMY();
  return (
    <section aria-labelledby="privacy-due-title">
      <h2 id="privacy-due-title">{t('dueTitle')}</h2>
      {due.isError ? (
        <p>{t('dueLoadFailed')}</p>
      ) : due.data && due.data.length === 0 ? (
        <p>{t('dueNone', { days: DUE_WITHIN_DAYS })}</p>
      ) : (
        <ul>
          {(due.data ?? []).map((request) => (
            <li key={request.id}>
              {t(request.dueOn < today ? 'overdueLine' : 'dueLine', {
                kind: t(request.kind === 'access' ? 'kind_access' : 'kind_correction'),
                person: personLabel(request),
                received: formatDay(request.receivedOn),
                due: formatDay(request.dueOn),
              })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
