import { useState } from 'react';
import { brand } from 'shared-api';
import { Inline, Stack, createGlobalStyle, useCatalog } from 'shared-ui';
import { InputField, SelectField } from 'shared-ui/forms';
import { formatDay } from '../../../lib/format';
import { CHART_IDS, type InsightsFilter } from '../api/insightsApi';
import { insightsCatalog } from '../i18n';
import { MAX_DAYS, PERIOD_PRESETS, periodProblem, presetPeriod, type Period, type PeriodPreset } from '../utils/period';
import { ChartPanel } from './ChartPanel';

/** On paper: the charts and tables only, each kept on one page where it fits. */
const PrintStyle = createGlobalStyle`
  @media print {
    [data-print='hide'], nav, header, footer { display: none !important; }
    body { background: #ffffff; }
  }
`;

/** The Insights page: a period (GMT+8) and a school, then every chart of the season with its numbers. */
export function InsightsBoard() {
  const { t } = useCatalog(insightsCatalog);
  const [preset, setPreset] = useState<PeriodPreset>('next4Weeks');
  const [custom, setCustom] = useState<Partial<Period>>({});
  const [school, setSchool] = useState('');

  const problem = preset === 'custom' ? periodProblem(custom) : null;
  const period = preset === 'custom' ? (problem ? null : (custom as Period)) : presetPeriod(preset);
  const filter: InsightsFilter | null = period ? { ...period, ...(school ? { school } : {}) } : null;
  const problemText =
    problem === 'missing' ? t('periodMissing') : problem === 'order' ? t('periodOrder') : problem === 'tooLong' ? t('periodTooLong', { days: MAX_DAYS }) : null;

  return (
    <Stack>
      <PrintStyle />
      <form aria-label={t('filters')} onSubmit={(e) => e.preventDefault()} data-print="hide">
        <Inline>
          <SelectField label={t('period')} id="insights-period" value={preset} onChange={(e) => setPreset(e.target.value as PeriodPreset)}>
            {PERIOD_PRESETS.map((p) => (
              <option key={p} value={p}>
                {t(p)}
              </option>
            ))}
          </SelectField>
          {preset === 'custom' && (
            <>
              <InputField label={t('from')} id="insights-from" type="date" value={custom.from ?? ''} onChange={(e) => setCustom({ ...custom, from: e.target.value })} />
              <InputField
                label={t('to')}
                id="insights-to"
                type="date"
                error={problem && problem !== 'missing' ? (problemText ?? undefined) : undefined}
                value={custom.to ?? ''}
                onChange={(e) => setCustom({ ...custom, to: e.target.value })}
              />
            </>
          )}
          <SelectField label={t('school')} id="insights-school" value={school} onChange={(e) => setSchool(e.target.value)}>
            <option value="">{t('allSchools')}</option>
            {brand.schools.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
              </option>
            ))}
          </SelectField>
        </Inline>
      </form>
      {filter ? (
        <>
          <p role="status">{t('periodShown', { from: formatDay(filter.from), to: formatDay(filter.to) })}</p>
          {CHART_IDS.map((chart) => (
            <ChartPanel key={chart} chart={chart} filter={filter} />
          ))}
        </>
      ) : (
        <p role="status">{problemText}</p>
      )}
    </Stack>
  );
}
