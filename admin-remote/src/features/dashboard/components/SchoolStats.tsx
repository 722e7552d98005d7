import { brand } from 'shared-api';
import { useCatalog } from 'shared-ui';
import type { StaffSlotPage } from '../api/staffSlotsApi';
import { dashboardCatalog } from '../i18n';
import { OTHER_SCHOOL } from '../utils/schools';
import { CountCards } from '../../../lib/CountCards';

/** The cards: each brand school's booked seats as the server counted them, and the "other" card only when it counts some. */
export function schoolCards(schools: StaffSlotPage['schools']): Array<{ school: string; count: number }> {
  const counts = new Map((schools ?? []).map(({ school, count }) => [school ?? OTHER_SCHOOL, count]));
  const cards = brand.schools.map((school) => ({ school: school.name, count: counts.get(school.name) ?? 0 }));
  const other = counts.get(OTHER_SCHOOL) ?? 0;
  return other > 0 ? [...cards, { school: OTHER_SCHOOL, count: other }] : cards;
}

/** One card per school with the seats booked among the Booked view's matches (before its school filter); a dash until loaded. */
export function SchoolStats({ schools, loading }: { schools: StaffSlotPage['schools']; loading: boolean }) {
  const { t } = useCatalog(dashboardCatalog);
  return (
    <CountCards
      label={t('bySchool')}
      cards={schoolCards(schools).map(({ school, count }, i) => ({
        id: `school-stat-${i}`,
        label: school === OTHER_SCHOOL ? t('otherSchool') : school,
        count: loading ? undefined : count,
      }))}
      // As wide as the four counts above them.
      desktopColumns={4}
    />
  );
}
