import { useMemo } from 'react';
import { serverMessage } from 'shared-api';
import { Button, ErrorPanel, Heading, Skeleton, Stack, media, styled, useCatalog } from 'shared-ui';
import { downloadCsv } from '../../../lib/csv';
import { useInsightsChartQuery, type ChartId, type InsightsFilter } from '../api/insightsApi';
import { insightsCatalog } from '../i18n';
import { chartCsv, chartTable } from '../utils/tables';
import { BarChart } from './BarChart';

const Panel = styled.section`
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space[4]};
  break-inside: avoid;
`;

/** The chart beside its table on a desk; one under the other on a phone. */
const ChartAndTable = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space[4]};
  ${media.desktop`grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);`}
  @media print {
    grid-template-columns: minmax(0, 1fr);
  }
`;

const TableScroll = styled.div`
  overflow-x: auto;
  table {
    border-collapse: collapse;
    width: 100%;
    font-variant-numeric: tabular-nums;
  }
  th,
  td {
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
    padding: ${({ theme }) => `${theme.space[1]} ${theme.space[2]}`};
    text-align: left;
  }
  td:not(:first-child) {
    text-align: right;
  }
`;

/** One chart of the page: its call, the chart, its numbers as a table, and its CSV. */
export function ChartPanel({ chart, filter }: { chart: ChartId; filter: InsightsFilter }) {
  const { t } = useCatalog(insightsCatalog);
  const { data, error, isFetching, refetch } = useInsightsChartQuery({ chart, ...filter });
  const table = useMemo(() => (data ? chartTable(chart, data) : null), [chart, data]);
  const title = t(chart);
  const headingId = `insights-${chart}`;
  const fileName = `insights-${chart}-${filter.from}-${filter.to}${filter.school ? `-${filter.school.toLowerCase().replace(/\W+/g, '-')}` : ''}.csv`;
  return (
    <Panel aria-labelledby={headingId} aria-busy={isFetching}>
      <Stack>
        <Heading level={2} id={headingId}>
          {title}
        </Heading>
        <p>{t(`${chart}-intro` as 'fill-rate-intro')}</p>
        {error && !isFetching ? (
          <ErrorPanel message={serverMessage(error) ?? t('loadFailed')} onRetry={() => void refetch()} />
        ) : !table ? (
          <Skeleton height="260px" />
        ) : (
          <>
            <ChartAndTable>
              {table.labels.length > 0 ? <BarChart table={table} label={t('chartOf', { title })} /> : <p>{t('empty')}</p>}
              {/* A wide table scrolls sideways on a phone: a focusable, named region so a keyboard can scroll it. */}
              <TableScroll tabIndex={0} role="region" aria-label={t('tableOf', { title })}>
                <table>
                  <caption>{t('tableOf', { title })}</caption>
                  <thead>
                    <tr>
                      {table.columns.map((column) => (
                        <th key={column} scope="col">
                          {column}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {table.rows.map((row, i) => (
                      <tr key={i}>
                        {row.map((cell, j) =>
                          j === 0 ? (
                            <th key={j} scope="row">
                              {cell}
                            </th>
                          ) : (
                            <td key={j}>{cell}</td>
                          ),
                        )}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </ChartAndTable>
            <div data-print="hide">
              <Button type="button" size="sm" variant="secondary" onClick={() => downloadCsv(fileName, chartCsv(table))} aria-label={`${t('downloadCsv')}: ${title}`}>
                {t('downloadCsv')}
              </Button>
            </div>
          </>
        )}
      </Stack>
    </Panel>
  );
}
