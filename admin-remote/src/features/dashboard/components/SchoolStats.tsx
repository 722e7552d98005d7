import { brand, type StaffSlot } from 'shared-api';
import { media, styled, useCatalog } from 'shared-ui';
import { Card, CardBody } from 'shared-ui/data';
import { dashboardCatalog } from '../i18n';
import en from '../locales/en.json';

const Grid = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  grid-template-columns: repeat(2, minmax(0, 1fr));
  ${media.desktop`grid-template-columns: repeat(4, minmax(0, 1fr));`}
`;

const Label = styled.p`
  margin: 0;
  font-size: 0.875rem;
`;

const Value = styled.p`
  margin: 0.25rem 0 0;
  font-size: 1.75rem;
  font-weight: 700;
`;

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
    <Grid aria-label={t('bySchool')}>
      {countBySchool(slots).map(({ school, count }, i) => (
        <li key={school}>
          <Card>
            <CardBody>
              <Label id={`school-stat-${i}`}>{school === OTHER_SCHOOL ? t('otherSchool') : school}</Label>
              <Value aria-labelledby={`school-stat-${i}`} data-testid={`school-stat-${i}`}>
                {loading ? '–' : count}
              </Value>
            </CardBody>
          </Card>
        </li>
      ))}
    </Grid>
  );
}
