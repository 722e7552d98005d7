import { useState } from 'react';
import type { Breach } from 'shared-api/contract';
import { serverMessage } from 'shared-api';
import { Button, ErrorPanel, Inline, useCatalog, useToast } from 'shared-ui';
import { Badge, Table, TBody, Td, Th, THead, Tr } from 'shared-ui/data';
import { ConfirmDialog } from 'shared-ui/forms';
import { downloadCsv, downloadFile } from '../../../lib/csv';
import { formatDay, formatInstant } from '../../../lib/format';
import { useBreachesQuery, useBreachPeopleExportMutation, useBreachStepMutation } from '../api/breachesApi';
import { breachesCatalog } from '../i18n';

/**
 * The breach log: each breach with who it touches, the Commissioner's 72-hour deadline and the people's 7-day one
 * (overdue said so), a button for each step, and the affected people's contacts as JSON or CSV in one click.
 */
export function BreachLog({ now = () => new Date() }: { now?: () => Date }) {
  const { t } = useCatalog(breachesCatalog);
  const toast = useToast();
  const list = useBreachesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [step, stepping] = useBreachStepMutation();
  const [exportPeople, exporting] = useBreachPeopleExportMutation();
  const [confirming, setConfirming] = useState<Breach | null>(null);

  const record = async (breach: Breach, which: 'commissioner-notified' | 'notify') => {
    const result = await step({ id: breach.id, step: which });
    setConfirming(null);
    if ('error' in result) toast.error(serverMessage(result.error) ?? t('stepFailed'));
    else toast.success(which === 'notify' ? t('notified', { count: result.data.peopleNotified ?? 0 }) : t('commissionerRecorded'));
  };
  const download = async (breach: Breach, format: 'json' | 'csv') => {
    try {
      const text = await exportPeople({ id: breach.id, format }).unwrap();
      const name = `breach-${breach.id}-people.${format}`;
      if (format === 'csv') downloadCsv(name, text);
      else downloadFile(name, [text], 'application/json;charset=utf-8');
    } catch {
      toast.error(t('exportFailed'));
    }
  };

  if (list.isError) return <ErrorPanel message={t('loadFailed')} onRetry={() => void list.refetch()} />;
  const rows = list.data ?? [];
  const late = (due: string, done: string | null) => done === null && Date.parse(due) < now().getTime();
  return (
    <>
      {list.data && rows.length === 0 && <p>{t('empty')}</p>}
      {rows.length > 0 && (
        <Table aria-label={t('caption')} aria-busy={list.isFetching || undefined}>
          <THead>
            <Tr>
              <Th scope="col">{t('colFound')}</Th>
              <Th scope="col">{t('colWhat')}</Th>
              <Th scope="col">{t('colWho')}</Th>
              <Th scope="col">{t('colCommissioner')}</Th>
              <Th scope="col">{t('colPeople')}</Th>
              <Th scope="col">{t('colExport')}</Th>
            </Tr>
          </THead>
          <TBody>
            {rows.map((b) => (
              <Tr key={b.id}>
                <Td>{formatInstant(b.foundAt)}</Td>
                <Td>
                  <div>{b.whatHappened}</div>
                  <div>{b.dataAffected}</div>
                </Td>
                <Td>
                  {[b.bookedFrom && b.bookedTo ? t('scopePeriod', { from: formatDay(b.bookedFrom), to: formatDay(b.bookedTo) }) : null, b.school ? t('scopeSchool', { school: b.school }) : null]
                    .filter(Boolean)
                    .join(' ')}
                  <div>{t('affected', { count: b.affected })}</div>
                </Td>
                <Td>
                  {b.commissionerNotifiedAt ? (
                    t('notifiedAt', { time: formatInstant(b.commissionerNotifiedAt) })
                  ) : (
                    <>
                      <div>
                        {t('dueBy', { time: formatInstant(b.commissionerDueAt) })}
                        {late(b.commissionerDueAt, b.commissionerNotifiedAt) && (
                          <>
                            {' '}
                            <Badge tone="danger">{t('overdue')}</Badge>
                          </>
                        )}
                      </div>
                      <Button size="sm" variant="secondary" disabled={stepping.isLoading} onClick={() => void record(b, 'commissioner-notified')} aria-label={t('recordCommissionerLabel', { id: b.id })}>
                        {t('recordCommissioner')}
                      </Button>
                    </>
                  )}
                </Td>
                <Td>
                  {b.peopleNotifiedAt ? (
                    t('mailedAt', { count: b.peopleNotified ?? 0, time: formatInstant(b.peopleNotifiedAt) })
                  ) : (
                    <>
                      <div>
                        {t('dueBy', { time: formatInstant(b.peopleDueAt) })}
                        {late(b.peopleDueAt, b.peopleNotifiedAt) && (
                          <>
                            {' '}
                            <Badge tone="danger">{t('overdue')}</Badge>
                          </>
                        )}
                      </div>
                      <Button size="sm" disabled={stepping.isLoading || b.affected === 0} onClick={() => setConfirming(b)} aria-label={t('notifyPeopleLabel', { id: b.id })}>
                        {t('notifyPeople')}
                      </Button>
                    </>
                  )}
                </Td>
                <Td>
                  <Inline>
                    <Button size="sm" variant="secondary" disabled={exporting.isLoading} onClick={() => void download(b, 'json')} aria-label={t('exportJsonLabel', { id: b.id })}>
                      {t('exportJson')}
                    </Button>
                    <Button size="sm" variant="secondary" disabled={exporting.isLoading} onClick={() => void download(b, 'csv')} aria-label={t('exportCsvLabel', { id: b.id })}>
                      {t('exportCsv')}
                    </Button>
                  </Inline>
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={t('confirmTitle')}
        message={t('confirmMessage', { count: confirming?.affected ?? 0 })}
        confirmLabel={t('confirm')}
        cancelLabel={t('cancel')}
        busy={stepping.isLoading}
        tone="primary"
        onConfirm={() => confirming && void record(confirming, 'notify')}
      />
    </>
  );
}
