// Each chart's answer as one table (its columns and rows) and the chart's series: the table beside the chart, the
// chart and the CSV are drawn from the same numbers, so what is seen, read aloud and downloaded agree.
import { formatRM } from 'shared-api';
import type { CsvValue } from '../../../lib/csv';
import { csvText } from '../../../lib/csv';
import { formatDay, formatTime } from '../../../lib/format';
import type { ChartId, InsightsData } from '../api/insightsApi';
import { insightsText as t } from '../i18n';

export type Series = { label: string; values: number[] };
export type ChartTable = {
  columns: string[];
  rows: string[][];
  /** The chart's categories (one per bar group) and its series. */
  labels: string[];
  series: Series[];
  /** The chart's value axis: counts, percent (0–100) or ringgit. */
  unit: 'count' | 'percent' | 'ringgit';
};

const pct = (value: number | null) => (value === null ? t('none') : t('percent', { value }));
const rm = (sen: number) => formatRM(sen);
const n = (value: number) => String(value);

/** The table and chart series of one chart's answer, in the page's language. */
export function chartTable<C extends ChartId>(chart: C, data: InsightsData[C]): ChartTable {
  switch (chart) {
    case 'fill-rate': {
      const { weeks } = data as InsightsData['fill-rate'];
      const schools = weeks[0]?.bySchool.map((s) => s.school) ?? [];
      return {
        columns: [t('colWeek'), t('colSeatsOffered'), t('colSeatsBooked'), t('colFillRate'), ...schools.map((school) => t('colBookedAt', { school }))],
        rows: weeks.map((w) => [formatDay(w.weekStart), n(w.seatsOffered), n(w.seatsBooked), pct(w.fillRatePercent), ...w.bySchool.map((s) => n(s.seatsBooked))]),
        labels: weeks.map((w) => formatDay(w.weekStart)),
        series: [{ label: t('colFillRate'), values: weeks.map((w) => w.fillRatePercent ?? 0) }],
        unit: 'percent',
      };
    }
    case 'popular-times': {
      const { cells } = data as InsightsData['popular-times'];
      const weekday = (d: number) => t(`weekday${d}` as 'weekday1');
      return {
        columns: [t('colWeekday'), t('colTime'), t('colSeatsBooked')],
        rows: cells.map((c) => [weekday(c.weekday), formatTime(c.time), n(c.seatsBooked)]),
        labels: cells.map((c) => `${weekday(c.weekday)} ${formatTime(c.time)}`),
        series: [{ label: t('colSeatsBooked'), values: cells.map((c) => c.seatsBooked) }],
        unit: 'count',
      };
    }
    case 'waitlist': {
      const { weeks, offers, rebooking } = data as InsightsData['waitlist'];
      const figures: [string, string][] = [
        ...weeks.map((w): [string, string] => [`${t('colEntries')}, ${t('colWeek').toLowerCase()} ${formatDay(w.weekStart)}`, n(w.entries)]),
        [t('offersMade'), n(offers.made)],
        [t('offersAccepted'), n(offers.accepted)],
        [t('offersPassed'), n(offers.passed)],
        [t('offersExpired'), n(offers.expired)],
        [t('offersCancelled'), n(offers.cancelled)],
        [t('offersOpen'), n(offers.open)],
        [t('seatsFreed'), n(rebooking.freed)],
        [t('seatsRebooked'), n(rebooking.rebooked)],
        [t('medianRebook'), rebooking.medianMinutes === null ? t('none') : t('minutes', { minutes: rebooking.medianMinutes })],
      ];
      return {
        columns: [t('colFigure'), t('colValue')],
        rows: figures.map(([label, value]) => [label, value]),
        labels: weeks.map((w) => formatDay(w.weekStart)),
        series: [{ label: t('colEntries'), values: weeks.map((w) => w.entries) }],
        unit: 'count',
      };
    }
    case 'checkout': {
      const funnel = data as InsightsData['checkout'];
      const steps = ['started', 'paid', 'failed', 'cancelled', 'expired', 'open'] as const;
      const stepLabel = (step: (typeof steps)[number]) => t(step === 'cancelled' ? 'cancelledOnGateway' : step);
      const methodLabel = (method: string) => (method === 'unknown' ? t('unknownMethod') : method.toUpperCase());
      return {
        columns: [t('colMethod'), ...steps.map(stepLabel)],
        rows: [
          ...funnel.byMethod.map((m) => [methodLabel(m.method), ...steps.map((step) => n(m[step]))]),
          [t('holds'), n(funnel.holds), '', '', '', '', ''],
          [t('holdToPaid'), pct(funnel.holdToPaidPercent), '', '', '', '', ''],
        ],
        labels: [t('holds'), ...steps.map(stepLabel)],
        series: [{ label: t('colValue'), values: [funnel.holds, ...steps.map((step) => funnel[step])] }],
        unit: 'count',
      };
    }
    case 'attendance': {
      const { schools } = data as InsightsData['attendance'];
      const kinds = ['cancelledByParent', 'cancelledByStaff', 'moved'] as const;
      const kindLabel = { cancelledByParent: t('colCancelledByParent'), cancelledByStaff: t('colCancelledByStaff'), moved: t('colMoved') };
      return {
        columns: [t('colSchool'), ...kinds.map((k) => kindLabel[k])],
        rows: schools.map((s) => [s.school, ...kinds.map((k) => n(s[k]))]),
        labels: schools.map((s) => s.school),
        series: kinds.map((k) => ({ label: kindLabel[k], values: schools.map((s) => s[k]) })),
        unit: 'count',
      };
    }
    case 'money': {
      const { schools } = data as InsightsData['money'];
      return {
        columns: [t('colSchool'), t('colPaid'), t('colRefunded'), t('colNet')],
        rows: schools.map((s) => [s.school, rm(s.paidSen), rm(s.refundedSen), rm(s.netSen)]),
        labels: schools.map((s) => s.school),
        series: [
          { label: t('colPaid'), values: schools.map((s) => s.paidSen / 100) },
          { label: t('colRefunded'), values: schools.map((s) => s.refundedSen / 100) },
          { label: t('colNet'), values: schools.map((s) => s.netSen / 100) },
        ],
        unit: 'ringgit',
      };
    }
  }
  throw new Error(`Unknown chart ${String(chart)}`);
}

/** The table as the product's Excel-safe CSV (quoting, formula guard: lib/csv). */
export const chartCsv = (table: ChartTable): string => csvText(table.columns, table.rows as CsvValue[][]);
