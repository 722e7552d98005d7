import { useState, type ReactNode } from 'react';
import type { Breach } from 'shared-api/contract';
import { serverMessage } from 'shared-api';
import { AccountMessage } from 'shared-api/accounts';
import { Button, ErrorPanel, Inline, useCatalog, useToast } from 'shared-ui';
import { Badge, DataTable, type DataColumn } from 'shared-ui/data';
import { ConfirmDialog } from 'shared-ui/forms';
import { downloadCsv, downloadFile } from '../../../lib/csv';
import { formatDay, formatInstant } from '../../../lib/format';
import {
  useBreachesQuery,
  useBreachPeopleExportMutation,
  useBreachStepMutation,
  useNotifyBreachPeopleMutation,
} from '../api/breachesApi';
import { breachesCatalog } from '../i18n';

/**
 * The breach log: each breach with who it touches, the Commissioner's 72-hour deadline and the people's 7-day one
 * (overdue said so), a button for each step, and the affected people's contacts as JSON or CSV in one click. Where
 * the school has two admins or more, one admin asks for the people's mailing and another confirms it:
 * `currentUserEmail` (the signed-in admin) tells the one who asked from the one who may confirm.
 */
export function BreachLog({ now = () => new Date(), currentUserEmail }: { now?: () => Date; currentUserEmail?: string }) {
  const { t } = useCatalog(breachesCatalog);
  const toast = useToast();
  const list = useBreachesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [step, stepping] = useBreachStepMutation();
  const [notify, notifying] = useNotifyBreachPeopleMutation();
  const busy = stepping.isLoading || notifying.isLoading;
  const [exportPeople, exporting] = useBreachPeopleExportMutation();
  const [confirming, setConfirming] = useState<Breach | null>(null);

  const recordCommissioner = async (breach: Breach) => {
    const result = await step({ id: breach.id, step: 'commissioner-notified' });
    if ('error' in result) toast.error(serverMessage(result.error) ?? t('stepFailed'));
    else toast.success(t('commissionerRecorded'));
  };
  const notifyPeople = async (breach: Breach) => {
    const result = await notify(breach.id);
    setConfirming(null);
    if ('error' in result) toast.error(serverMessage(result.error) ?? t('stepFailed'));
    else if (result.data.asked) toast.success(waiting(result.data.breach) ?? AccountMessage.notifyAsked);
    else toast.success(t('notified', { count: result.data.breach.peopleNotified ?? 0 }));
  };
  /** Who asked for the mailing and when, while a second admin is to confirm it. */
  const waiting = (b: Breach) =>
    b.notifyAskedBy && b.notifyAskedAt ? t('notifyWaiting', { email: b.notifyAskedBy, time: formatInstant(b.notifyAskedAt) }) : null;
  /** The people's mailing: ask (or send, with one admin), confirm another admin's ask, or wait for another admin. */
  const notifyAction = (b: Breach) => {
    const asked = waiting(b);
    if (asked && b.notifyAskedBy === currentUserEmail) {
      const noteId = `breach-${b.id}-own-ask`;
      return (
        <>
          <div>{asked}</div>
          <Button size="sm" disabled aria-describedby={noteId} aria-label={t('notifyPeopleLabel', { id: b.id })}>
            {t('notifyPeople')}
          </Button>
          <div id={noteId}>{t('notifyOwnAsk')}</div>
        </>
      );
    }
    return (
      <>
        {asked && <div>{asked}</div>}
        <Button
          size="sm"
          disabled={busy || b.affected === 0}
          onClick={() => setConfirming(b)}
          aria-label={t(asked ? 'notifyConfirmSendLabel' : 'notifyPeopleLabel', { id: b.id })}
        >
          {t(asked ? 'notifyConfirmSend' : 'notifyPeople')}
        </Button>
      </>
    );
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
  const late = (due: string, done: string | null) => done === null && Date.parse(due) < now().getTime();
  /** A deadline not met yet: when it falls (overdue said so) and the button that records the step. */
  const due = (at: string, done: string | null, action: ReactNode) => (
    <>
      <div>
        {t('dueBy', { time: formatInstant(at) })}
        {late(at, done) && (
          <>
            {' '}
            <Badge tone="danger">{t('overdue')}</Badge>
          </>
        )}
      </div>
      {action}
    </>
  );
  const columns: DataColumn<Breach>[] = [
    { id: 'found', header: t('colFound'), cell: (b) => formatInstant(b.foundAt) },
    {
      id: 'what',
      header: t('colWhat'),
      cell: (b) => (
        <>
          <div>{b.whatHappened}</div>
          <div>{b.dataAffected}</div>
        </>
      ),
    },
    {
      id: 'who',
      header: t('colWho'),
      cell: (b) => (
        <>
          {[
            b.bookedFrom && b.bookedTo ? t('scopePeriod', { from: formatDay(b.bookedFrom), to: formatDay(b.bookedTo) }) : null,
            b.school ? t('scopeSchool', { school: b.school }) : null,
          ]
            .filter(Boolean)
            .join(' ')}
          <div>{t('affected', { count: b.affected })}</div>
        </>
      ),
    },
    {
      id: 'commissioner',
      header: t('colCommissioner'),
      cell: (b) =>
        b.commissionerNotifiedAt
          ? t('notifiedAt', { time: formatInstant(b.commissionerNotifiedAt) })
          : due(
              b.commissionerDueAt,
              b.commissionerNotifiedAt,
              <Button
                size="sm"
                variant="secondary"
                disabled={busy}
                onClick={() => void recordCommissioner(b)}
                aria-label={t('recordCommissionerLabel', { id: b.id })}
              >
                {t('recordCommissioner')}
              </Button>,
            ),
    },
    {
      id: 'people',
      header: t('colPeople'),
      cell: (b) =>
        b.peopleNotifiedAt
          ? t('mailedAt', { count: b.peopleNotified ?? 0, time: formatInstant(b.peopleNotifiedAt) })
          : due(b.peopleDueAt, b.peopleNotifiedAt, notifyAction(b)),
    },
    {
      id: 'export',
      header: t('colExport'),
      cell: (b) => (
        <Inline>
          {(['json', 'csv'] as const).map((format) => (
            <Button
              key={format}
              size="sm"
              variant="secondary"
              disabled={exporting.isLoading}
              onClick={() => void download(b, format)}
              aria-label={t(format === 'json' ? 'exportJsonLabel' : 'exportCsvLabel', { id: b.id })}
            >
              {t(format === 'json' ? 'exportJson' : 'exportCsv')}
            </Button>
          ))}
        </Inline>
      ),
    },
  ];
  return (
    <>
      <DataTable columns={columns} rows={list.data} rowKey={(b) => b.id} label={t('caption')} busy={list.isFetching} empty={t('empty')} />
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={t('confirmTitle')}
        message={t('confirmMessage', { count: confirming?.affected ?? 0 })}
        confirmLabel={t('confirm')}
        cancelLabel={t('cancel')}
        busy={notifying.isLoading}
        tone="primary"
        onConfirm={() => confirming && void notifyPeople(confirming)}
      />
    </>
  );
}
