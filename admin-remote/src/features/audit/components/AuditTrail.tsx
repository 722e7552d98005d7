import { useState, type FormEvent } from 'react';
import { serverMessage } from 'shared-api';
import { ValidationMessage } from 'shared-api/messages';
import { AUDIT_ACTIONS, AUDIT_PAGE_MAX, AuditActionLabel, type AuditAction, type AuditRecord } from 'shared-api/audit';
import { Button, Caption, ErrorPanel, Inline, Skeleton, Stack, styled, useCatalog } from 'shared-ui';
import { Table, TBody, Td, Th, THead, Tr } from 'shared-ui/data';
import { Field, Input, Select } from 'shared-ui/forms';
import { downloadCsv } from '../../../lib/csv';
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

const Muted = styled.span`
  display: block;
  font-size: 0.875rem;
`;

/** A record's day and time: two short lines that never break inside. */
const When = styled.time`
  white-space: nowrap;
  span {
    display: block;
  }
`;

/** Emails, references and summaries wrap, inside a word only when they must, so the From column stays in view. */
const WrappingTd = styled(Td)`
  overflow-wrap: anywhere;
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
function TargetCell({ record }: { record: AuditRecord }) {
  const { t } = useCatalog(auditCatalog);
  const target = targetSummary(record);
  // A summary already says what the detail would.
  const detail = typeof record.detail?.count === 'number' ? '' : detailText(record);
  return (
    <WrappingTd>
      {target.text}
      {detail && <Muted>{detail}</Muted>}
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
    </WrappingTd>
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

  return (
    <Stack>
      <form onSubmit={onApply} aria-label={t('filters')}>
        <Inline>
          <Field label={t('person')} htmlFor="audit-actor">
            <Input
              id="audit-actor"
              value={draft.actor}
              placeholder={t('personPlaceholder')}
              onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
            />
          </Field>
          <Field label={t('action')} htmlFor="audit-action">
            <Select id="audit-action" value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value as AuditAction | '' })}>
              <option value="">{t('anyAction')}</option>
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {AuditActionLabel[action]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('from')} htmlFor="audit-from">
            <Input id="audit-from" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          </Field>
          <Field label={t('to')} htmlFor="audit-to" error={rangeError ?? undefined}>
            <Input id="audit-to" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
          </Field>
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
        <Table aria-busy={isFetching || undefined} scrollLabel={t('records')}>
          <Caption>{t('caption')}</Caption>
          <THead>
            <Tr>
              <Th scope="col">{t('columnTime')}</Th>
              <Th scope="col">{t('columnWho')}</Th>
              <Th scope="col">{t('columnAction')}</Th>
              <Th scope="col">{t('columnTarget')}</Th>
              <Th scope="col">{t('columnFrom')}</Th>
            </Tr>
          </THead>
          <TBody>
            {!data
              ? Array.from({ length: 5 }, (_, i) => (
                  <Tr key={i} data-testid="skeleton-row">
                    {Array.from({ length: 5 }, (__, j) => (
                      <Td key={j}>
                        <Skeleton width="6rem" />
                      </Td>
                    ))}
                  </Tr>
                ))
              : data.rows.map((record) => (
                  <Tr key={record.id}>
                    <Td>
                      <When dateTime={record.at}>
                        {formatDay(record.at)} <span>{formatInstantTime(record.at, { seconds: true })}</span>
                      </When>
                    </Td>
                    <WrappingTd>{record.actor}</WrappingTd>
                    <Td>{actionLabel(record)}</Td>
                    <TargetCell record={record} />
                    <Td>{record.ip ?? ''}</Td>
                  </Tr>
                ))}
            {data && data.rows.length === 0 && (
              <Tr>
                <Td colSpan={5}>{t('empty')}</Td>
              </Tr>
            )}
          </TBody>
        </Table>
      )}

      {data && (
        <Inline>
          <Button size="sm" variant="secondary" disabled={page <= 1 || isFetching} onClick={() => setPage((p) => p - 1)}>
            {t('previous')}
          </Button>
          <span aria-live="polite">{t('page', { page: data.page, pages, total: data.total })}</span>
          <Button size="sm" variant="secondary" disabled={page >= pages || isFetching} onClick={() => setPage((p) => p + 1)}>
            {t('next')}
          </Button>
        </Inline>
      )}
    </Stack>
  );
}
