import { formatInMY, formatRM, schoolName, type BookedChild } from 'shared-api';
import { schoolYearName } from 'shared-api/schools';
import { useCatalog } from 'shared-ui';
import { Details } from '../../../lib/resultLayout';
import { SeenTogether } from '../../../lib/school-place/SeenTogether';
import { resultCatalog } from '../i18n';

/** A checkout of several children (issue 37) on the receipt: each child, their school and year, and what was paid for them. */
export function ChildrenPaid({ children }: { children: BookedChild[] }) {
  const { t, locale } = useCatalog(resultCatalog);
  return (
    <>
    <Details aria-label={t('children')}>
      {children.map((child) => (
        <div key={child.position} style={{ display: 'contents' }}>
          <dt>{t('childNumber', { number: child.position })}</dt>
          <dd>
            {child.childName}, {schoolYearName(child.selectedSchool, child.childYear, locale)}, {schoolName(child.selectedSchool, locale)}:{' '}
            {child.discountSen > 0
              ? t('childPaidDiscount', { fee: formatRM(child.feeSen, locale), discount: formatRM(child.discountSen, locale), paid: formatRM(child.amountSen, locale) })
              : formatRM(child.amountSen, locale)}
            {child.cancelled && ` (${t('childCancelled')})`}
            {/* Staff moved this child alone to another time than the booking's (issue 37). */}
            {child.time && !child.cancelled && (
              <>
                <br />
                {t('childOwnTime', {
                  day: formatInMY(`${child.time.date}T${child.time.startTime}:00+08:00`, 'longDate', locale),
                  time: `${formatInMY(`${child.time.date}T${child.time.startTime}:00+08:00`, 'time', locale)} – ${formatInMY(`${child.time.date}T${child.time.endTime}:00+08:00`, 'time', locale)}`,
                })}
              </>
            )}
          </dd>
        </div>
      ))}
    </Details>
    {/* One place for the booking: the first child's school's (issue 37). */}
    <SeenTogether schools={[...children].sort((a, b) => a.position - b.position).map((child) => child.selectedSchool)} />
    </>
  );
}
