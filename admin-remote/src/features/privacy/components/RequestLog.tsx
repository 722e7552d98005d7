import { useState } from 'react';
import { serverMessage, todayInMY } from 'shared-api';
import type { PrivacyRequest } from 'shared-api/contract';
import { Button, ErrorPanel, Inline, useCatalog, useToast } from 'shared-ui';
import { Badge, DataTable, type DataColumn } from 'shared-ui/data';
import { formatDay, formatInstant } from '../../../lib/format';
import { useChangePrivacyRequestMutation, usePrivacyRequestsQuery } from '../api/privacyApi';
import { privacyCatalog } from '../i18n';
import { CorrectionForm } from './CorrectionForm';
import { personLabel } from '../utils/personLabel';
import { Email } from 'shared-ui/text';

/**
 * The request log: every access and correction request with the day it arrived, its due day (21 days, 35 once an
 * extension notice is recorded), who handled it and when it was answered; record an extension, an answer, and for a
 * correction request the corrected details.
 */
export function RequestLog() {
  const { t } = useCatalog(privacyCatalog);
  const toast = useToast();
  const requests = usePrivacyRequestsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [change, changing] = useChangePrivacyRequestMutation();
  const [correcting, setCorrecting] = useState<number | null>(null);
  const today = todayInMY();

  const record = async (request: PrivacyRequest, what: 'extend' | 'answer') => {
    const result = await change({ id: request.id, change: what });
    if ('error' in result) toast.error(serverMessage(result.error) ?? t('changeFailed'));
    else toast.success(t(what === 'extend' ? 'extendedToast' : 'answeredToast'));
  };

  if (requests.isError) return <ErrorPanel message={t('logLoadFailed')} onRetry={() => void requests.refetch()} />;
  const columns: DataColumn<PrivacyRequest>[] = [
    {
      id: 'kind',
      header: t('kind'),
      cell: (r) => t(r.kind === 'access' ? 'kind_access' : 'kind_correction'),
    },
    {
      id: 'person',
      header: t('requestPerson'),
      cell: (r) => (
        <>
          {/* An email breaks only after its @ or before a dot, never inside a word. */}
          {r.personEmail ? <Email address={r.personEmail} /> : personLabel(r)}
          {r.note && <div>{r.note}</div>}
        </>
      ),
    },
    { id: 'received', header: t('receivedOn'), cell: (r) => formatDay(r.receivedOn) },
    {
      id: 'due',
      header: t('dueOn'),
      cell: (r) => (
        <>
          {formatDay(r.dueOn)}
          {r.extendedAt && (
            <>
              {' '}
              <Badge tone="neutral">{t('extended')}</Badge>
            </>
          )}
          {r.answeredAt === null && r.dueOn < today && (
            <>
              {' '}
              <Badge tone="danger">{t('overdue')}</Badge>
            </>
          )}
        </>
      ),
    },
    { id: 'handler', header: t('handledBy'), cell: (r) => r.handledBy },
    {
      id: 'answered',
      header: t('answered'),
      cell: (r) => (r.answeredAt ? formatInstant(r.answeredAt) : t('notAnswered')),
    },
    {
      id: 'actions',
      header: t('actions'),
      unlabelled: true,
      cell: (r) => {
        if (r.answeredAt !== null) return null;
        const person = personLabel(r);
        return (
          <Inline>
            {r.kind === 'correction' && (
              <Button size="sm" variant="secondary" onClick={() => setCorrecting(correcting === r.id ? null : r.id)} aria-label={t('correctLabel', { person })}>
                {t('correct')}
              </Button>
            )}
            {!r.extendedAt && (
              <Button
                size="sm"
                variant="secondary"
                disabled={changing.isLoading}
                onClick={() => void record(r, 'extend')}
                aria-label={t('extendLabel', { person })}
              >
                {t('extend')}
              </Button>
            )}
            <Button size="sm" disabled={changing.isLoading} onClick={() => void record(r, 'answer')} aria-label={t('answerLabel', { person })}>
              {t('answer')}
            </Button>
          </Inline>
        );
      },
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={requests.data}
      rowKey={(r) => r.id}
      label={t('logCaption')}
      busy={requests.isFetching}
      empty={t('logEmpty')}
      rowDetail={(r) => correcting === r.id && <CorrectionForm request={r} onDone={() => setCorrecting(null)} />}
    />
  );
}
