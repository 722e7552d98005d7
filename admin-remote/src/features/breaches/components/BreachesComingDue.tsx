import { Link } from 'react-router-dom';
import type { Breach } from 'shared-api/contract';
import { useCatalog } from 'shared-ui';
import { formatDay, formatInstant } from '../../../lib/format';
import { useBreachesQuery } from '../api/breachesApi';
import { breachesCatalog } from '../i18n';

/** How far ahead the dashboard looks for a breach's notifications (the Commissioner's 72 hours, the people's 7 days). */
export const BREACH_DUE_WITHIN_MS = 7 * 86_400_000;

type Due = { breach: Breach; step: 'commissioner' | 'people'; dueAt: string };

/** The notifications of logged breaches still to make and due within a week (overdue first, then the nearest). */
export function breachStepsDue(breaches: Breach[], now = Date.now()): Due[] {
  const due: Due[] = [];
  for (const breach of breaches) {
    if (!breach.commissionerNotifiedAt) due.push({ breach, step: 'commissioner', dueAt: breach.commissionerDueAt });
    else if (!breach.peopleNotifiedAt) due.push({ breach, step: 'people', dueAt: breach.peopleDueAt });
  }
  return due.filter((d) => Date.parse(d.dueAt) - now < BREACH_DUE_WITHIN_MS).sort((a, b) => Date.parse(a.dueAt) - Date.parse(b.dueAt));
}

/** The dashboard's panel of breach notifications coming due (a breach's 72 hours run fast: it is shown from the start). */
export function BreachesComingDue() {
  const { t } = useCatalog(breachesCatalog);
  const breaches = useBreachesQuery();
  const due = breachStepsDue(breaches.data ?? []);
  // Nothing logged and nothing due: no panel (the breach log is one click away in the header).
  if (breaches.isError) return <p>{t('dueLoadFailed')}</p>;
  if (due.length === 0) return null;
  const now = Date.now();
  return (
    <section aria-labelledby="breach-due-title">
      <h2 id="breach-due-title">{t('dueTitle')}</h2>
      <ul>
        {due.map(({ breach, step, dueAt }) => (
          <li key={`${breach.id}-${step}`}>
            {t(Date.parse(dueAt) < now ? 'overdueLine' : 'dueLine', {
              step,
              found: formatDay(breach.foundAt),
              due: formatInstant(dueAt),
            })}{' '}
            <Link to="/secured/privacy">{t('dueOpen')}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
