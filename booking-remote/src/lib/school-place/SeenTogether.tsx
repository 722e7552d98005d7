import { schoolName } from 'shared-api';
import { schoolDetails } from 'shared-api/schools';
import { useCatalog } from 'shared-ui';
import { placeCatalog } from './i18n';

/**
 * Issue 37: a booking has one place, the first child's school's. When the children of one checkout apply to schools at
 * different addresses, this says where they are all seen (the first child decides); one address for all: nothing.
 */
export function SeenTogether({ schools }: { schools: string[] }) {
  const { t, locale } = useCatalog(placeCatalog);
  const [first] = schools;
  const place = first ? schoolDetails(first) : undefined;
  if (!first || !place) return null;
  const addresses = new Set(schools.map((school) => schoolDetails(school)?.address ?? school));
  if (addresses.size < 2) return null;
  return <p>{t('seenTogether', { school: schoolName(first, locale), address: place.address })}</p>;
}
