import { brand, type StaffSlot } from 'shared-api';
import { useCatalog } from 'shared-ui';
import { dashboardCatalog } from '../i18n';
import en from '../locales/en.json';
import { CountCards } from '../../../lib/CountCards';

/** The "other" bucket's key (its English words); shown in the page's language. */
export const OTHER_SCHOOL = en.otherSchool;

/** The school a booked slot counts under: one of the brand's schools, or the "other" bucket. */
export const schoolOf = (slot: Pick<StaffSlot, 'selectedSchool'>): string =>
  brand.schools.some((s) => s.name === slot.selectedSchool) ? slot.selectedSchool! : OTHER_SCHOOL;

/** Bookings per school over the booked slots shown; the "other" card only when some booking falls in it. */
export function countBySchool(slots: Array<Pick<StaffSlot, 'selectedSchool'>>): Array<{ school: string; count: number }> {
  const counts = new Map<string, number>(brand.schools.map((s) => [s.name, 0]));
  for (const slot of slots) {
    const school = schoolOf(slot);
    counts.set(school, (counts.get(school) ?? 0) + 1);
  }
  return [...counts].map(([school, count]) => ({ school, count })).filter((c) => c.school !== OTHER_SCHOOL || c.count > 0);
}

/** One card per school with its bookings in the Booked view's shown period; a dash until the lists have loaded. */
export function SchoolStats({ slots, loading }: { slots: StaffSlot[]; loading: boolean }) {
  const { t } = useCatalog(dashboardCatalog);
  return (
    <CountCards
      label={t('bySchool')}
      cards={countBySchool(slots).map(({ school, count }, i) => ({
        id: `school-stat-${i}`,
        label: school === OTHER_SCHOOL ? t('otherSchool') : school,
        count: loading ? undefined : count,
      }))}
      // As wide as the four counts above them.
      desktopColumns={4}
    />
  );
}
