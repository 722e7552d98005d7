import type { Locale } from 'shared-api';
import { schoolYearName } from 'shared-api/schools';
import type { Translate } from 'shared-ui';
import type { resultCatalog } from '../i18n';

type Messages = NonNullable<typeof resultCatalog.messages>;

/** The child a visit is for, as the server or the paying browser knows it. */
export type VisitChild = { name: string; year?: string | null };

/** A visit's heading: whose it is ("Assessment visit for Adam, Form 1", the year in the page's language), or "Your assessment visit". */
export function visitTitle(child: VisitChild | null, school: string | null, t: Translate<Messages>, locale: Locale): string {
  if (!child) return t('visit.yours');
  const year = child.year && schoolYearName(school ?? '', child.year, locale);
  return t('visit.for', { child: year ? t('childValue', { name: child.name, year }) : child.name });
}
