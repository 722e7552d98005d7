import { Spinner, useCatalog } from 'shared-ui';
import { timetableCatalog } from '../features/timetable/i18n';

/** Shown while a lazily loaded page arrives (its words are in the home page's catalogue, already on the first load). */
export function PageLoading() {
  const { t } = useCatalog(timetableCatalog);
  return <Spinner label={t('pageLoading')} />;
}
