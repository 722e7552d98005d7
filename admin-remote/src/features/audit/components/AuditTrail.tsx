import { useState, type FormEvent, type ReactNode } from 'react';
import { serverMessage } from 'shared-api';
import { ValidationMessage } from 'shared-api/messages';
import { AUDIT_ACTIONS, AUDIT_PAGE_MAX, AuditActionLabel, type AuditAction, type AuditRecord } from 'shared-api/audit';
import { Button, ErrorPanel, Inline, Stack, styled, useCatalog, type Translate } from 'shared-ui';
import { DataTable, NarrowView, RecordCard, RecordCardList, SecondLine, WideView, type DataColumn } from 'shared-ui/data';
import { Email } from 'shared-ui/text';
import { InputField, SelectField } from 'shared-ui/forms';
import { downloadCsv } from '../../../lib/csv';
import { Pager } from '../../../lib/Pager';
import { english } from '../../../lib/i18n';
import { auditCatalog, auditText } from '../i18n';
import en from '../locales/en.json';
import { useAuditPageQuery, useLazyAuditPageQuery, type AuditFilters } from '../api/auditApi';
import { auditCsv } from '../utils/csv';
import { formatDay, formatInstantTime } from '../../../lib/format';
import { actionLabel, detailText, targetSummary } from '../utils/format';

export const AUDIT_PAGE_SIZE = 25;
/** The export reads at most this many pages of AUDIT_PAGE_MAX records (narrow the filters for more). */
export const EXPORT_MAX_PAGES = 100;

/** English texts, for tests. */
export const AuditText = {
  ...english(en, 'caption', 'empty', 'loadFailed', 'exportFailed', 'anyAction'),
  exported: (count: number) => auditText('exported', { count }),
  tooMany: (count: number) => auditText('tooMany', { count }),
};

/** A record's day and time: two short lines that never break inside. */
const When = styled.time`
  white-space: nowrap;
  span {
    display: block;
  }
`;

const SlotList = styled.details`
  margin-top: ${({ theme }) => theme.space[1]};
  summary {
    cursor: pointer;
    color: ${({ theme }) => theme.colors.brand};
  }
  ul {
    margin: ${({ theme }) => theme.space[1]} 0 0;
    padding-left: ${({ theme }) => theme.space[5]};
    font-size: 0.875rem;
  }
`;

/** What a record touched: one line; several slots created at once summarised, each slot behind a disclosure. */
function targetCell(record: AuditRecord, t: Translate<typeof en>): ReactNode {
  const target = targetSummary(record);
  // A summary already says what the detail would.
  const detail = typeof record.detail?.count === 'number' ? '' : detailText(record);
  // Nothing touched (a sign-in): a blank cell, no label on a phone's card.
  if (!target.text && !detail) return null;
  return (
    <>
      {target.text}
      {detail && <SecondLine>{detail}</SecondLine>}
      {target.items.length > 0 && (
        <SlotList>
          <summary>{t('showSlots', { count: target.items.length })}</summary>
          <ul>
            {target.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </SlotList>
      )}
    </>
  );
}

type Draft = { actor: string; action: AuditAction | ''; from: string; to: string };
const EMPTY: Draft = { actor: '', action: '', from: '', to: '' };
const filtersOf = (d: Draft): AuditFilters => ({
  actor: d.actor.trim() || undefined,
  action: d.action || undefined,
  from: d.from || undefined,
  to: d.to || undefined,
});

/** The records: the table on a desk; on a phone (CSS decides) a card each, while loading or when none, the table's words. */
function AuditRecords({ columns, records, busy }: { columns: DataColumn<AuditRecord>[]; records: AuditRecord[] | undefined; busy: boolean }) {
  const { t } = useCatalog(auditCatalog);
  const table = (
    <DataTable
      columns={columns}
      rows={records}
      rowKey={(record) => record.id}
      caption={t('caption')}
      scrollLabel={t('records')}
      busy={busy}
      loadingRows={5}
      empty={t('empty')}
    />
  );
  return (
    <>
      <WideView $alone={!records?.length}>{table}</WideView>
      {records?.length ? (
        <NarrowView>
          <RecordCardList title={t('caption')} busy={busy}>
            {records.map((record) => (
              <RecordCard key={record.id} fields={columns.map((column) => ({ id: column.id, label: column.header, value: column.cell(record) }))} />
            ))}
          </RecordCardList>
        </NarrowView>
      ) : null}
    </>
  );
}

/** The audit trail: filters (person, action, GMT+8 dates), a page of records, paging, and the CSV export of all that match. */
export function AuditTrail() {
  const { t } = useCatalog(auditCatalog);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [filters, setFilters] = useState<AuditFilters>({});
  const [page, setPage] = useState(1);
  const [exportMessage, setExportMessage] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const { data, error, isFetching, refetch } = useAuditPageQuery({ ...filters, page, limit: AUDIT_PAGE_SIZE }, { refetchOnMountOrArgChange: true });
  const [loadPage] = useLazyAuditPageQuery();

  const rangeError = draft.from && draft.to && draft.to < draft.from ? ValidationMessage.endBeforeStart : null;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;

  const onApply = (event: FormEvent) => {
    event.preventDefault();
    if (rangeError) return;
    setFilters(filtersOf(draft));
    setPage(1);
    setExportMessage(null);
  };
  const onClear = () => {
    setDraft(EMPTY);
    setFilters({});
    setPage(1);
    setExportMessage(null);
  };

  const onExport = async () => {
    setExporting(true);
    setExportMessage(null);
    try {
      const records: AuditRecord[] = [];
      let total = 0;
      for (let n = 1; n <= EXPORT_MAX_PAGES; n++) {
        const result = await loadPage({ ...filters, page: n, limit: AUDIT_PAGE_MAX }).unwrap();
        records.push(...result.rows);
        total = result.total;
        if (result.rows.length < AUDIT_PAGE_MAX || records.length >= total) break;
      }
      if (records.length === 0) {
        setExportMessage(t('empty'));
        return;
      }
      const stamp = [filters.from, filters.to].filter(Boolean).join('-to-') || 'all';
      downloadCsv(`audit-${stamp}.csv`, auditCsv(records));
      setExportMessage(t(records.length < total ? 'tooMany' : 'exported', { count: records.length }));
    } catch (err) {
      setExportMessage(serverMessage(err as Parameters<typeof serverMessage>[0]) ?? t('exportFailed'));
    } finally {
      setExporting(false);
    }
  };

  const columns: DataColumn<AuditRecord>[] = [
    {
      id: 'time',
      header: t('columnTime'),
      cell: (record) => (
        <When dateTime={record.at}>
          {formatDay(record.at)} <span>{formatInstantTime(record.at, { seconds: true })}</span>
        </When>
      ),
    },
    // An email wraps after its @ or before a dot, never letter by letter (the column keeps a readable width).
    {
      id: 'who',
      header: t('columnWho'),
      wrap: 'words',
      minWidth: '12rem',
      cell: (record) => (record.actor.includes('@') ? <Email address={record.actor} /> : record.actor),
    },
    { id: 'action', header: t('columnAction'), cell: actionLabel },
    {
      id: 'target',
      header: t('columnTarget'),
      // References and summaries wrap, inside a word only when they must, within a width that keeps words readable.
      wrap: 'anywhere',
      minWidth: '10rem',
      cell: (record) => targetCell(record, t),
    },
    { id: 'from', header: t('columnFrom'), cell: (record) => record.ip ?? '' },
  ];

  return (
    <Stack>
      <form onSubmit={onApply} aria-label={t('filters')}>
        <Inline>
          <InputField
            label={t('person')}
            id="audit-actor"
            value={draft.actor}
            placeholder={t('personPlaceholder')}
            onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
          />
          <SelectField
            label={t('action')}
            id="audit-action"
            value={draft.action}
            onChange={(e) => setDraft({ ...draft, action: e.target.value as AuditAction | '' })}
          >
            <option value="">{t('anyAction')}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {AuditActionLabel[action]}
              </option>
            ))}
          </SelectField>
          <InputField label={t('from')} id="audit-from" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          <InputField
            label={t('to')}
            id="audit-to"
            error={rangeError ?? undefined}
            type="date"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          />
          <Button type="submit" size="sm" disabled={rangeError !== null}>
            {t('apply')}
          </Button>
          <Button type="button" size="sm" variant="secondary" onClick={onClear}>
            {t('clear')}
          </Button>
          <Button type="button" size="sm" variant="secondary" onClick={onExport} loading={exporting}>
            {t('export')}
          </Button>
        </Inline>
      </form>
      {exportMessage && <p role="status">{exportMessage}</p>}

      {error && !isFetching ? (
        <ErrorPanel message={serverMessage(error) ?? t('loadFailed')} onRetry={() => void refetch()} />
      ) : (
        <AuditRecords columns={columns} records={data?.rows} busy={isFetching} />
      )}

      {data && (
        <Pager
          page={page}
          pages={pages}
          busy={isFetching}
          onPage={setPage}
          previous={t('previous')}
          next={t('next')}
          status={t('page', { page: data.page, pages, total: data.total })}
          label={t('pages')}
        />
      )}
    </Stack>
  );
}
