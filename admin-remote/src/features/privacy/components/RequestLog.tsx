import { Fragment, useState } from 'react';
import { serverMessage, todayInMY } from 'shared-api';
import type { PrivacyRequest } from 'shared-api/contract';
import { Button, ErrorPanel, Inline, styled, useCatalog, useToast } from 'shared-ui';
import { Badge, Table, TBody, Td, Th, THead, Tr } from 'shared-ui/data';
import { formatDay, formatInstant } from '../../../lib/format';
import { useChangePrivacyRequestMutation, usePrivacyRequestsQuery } from '../api/privacyApi';
import { privacyCatalog } from '../i18n';
import { CorrectionForm } from './CorrectionForm';
import { personLabel } from '../utils/personLabel';

/** The correction form in its table-wide row: kept in the visible part of the table's scroll box on a phone. */
const InView = styled.div`
  position: sticky;
  left: ${({ theme }) => theme.space[3]};
  /* The viewport less the page's and the cell's padding. */
  max-width: calc(100vw - 3.5rem);
`;

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
  const rows = requests.data ?? [];
  return (
    <>
      {requests.data && rows.length === 0 && <p>{t('logEmpty')}</p>}
      {rows.length > 0 && (
        <Table aria-label={t('logCaption')} aria-busy={requests.isFetching || undefined}>
          <THead>
            <Tr>
              <Th scope="col">{t('kind')}</Th>
              <Th scope="col">{t('requestPerson')}</Th>
              <Th scope="col">{t('receivedOn')}</Th>
              <Th scope="col">{t('dueOn')}</Th>
              <Th scope="col">{t('handledBy')}</Th>
              <Th scope="col">{t('answered')}</Th>
              <Th scope="col">{t('actions')}</Th>
            </Tr>
          </THead>
          <TBody>
            {rows.map((r) => {
              const person = personLabel(r);
              const open = r.answeredAt === null;
              return (
                <Fragment key={r.id}>
                  <Tr>
                    <Td>{t(r.kind === 'access' ? 'kind_access' : 'kind_correction')}</Td>
                    <Td>
                      {person}
                      {r.note && <div>{r.note}</div>}
                    </Td>
                    <Td>{formatDay(r.receivedOn)}</Td>
                    <Td>
                      {formatDay(r.dueOn)}
                      {r.extendedAt && (
                        <>
                          {' '}
                          <Badge tone="neutral">{t('extended')}</Badge>
                        </>
                      )}
                      {open && r.dueOn < today && (
                        <>
                          {' '}
                          <Badge tone="danger">{t('overdue')}</Badge>
                        </>
                      )}
                    </Td>
                    <Td>{r.handledBy}</Td>
                    <Td>{r.answeredAt ? formatInstant(r.answeredAt) : t('notAnswered')}</Td>
                    <Td>
                      {open && (
                        <Inline>
                          {r.kind === 'correction' && (
                            <Button size="sm" variant="secondary" onClick={() => setCorrecting(correcting === r.id ? null : r.id)} aria-label={t('correctLabel', { person })}>
                              {t('correct')}
                            </Button>
                          )}
                          {!r.extendedAt && (
                            <Button size="sm" variant="secondary" disabled={changing.isLoading} onClick={() => void record(r, 'extend')} aria-label={t('extendLabel', { person })}>
                              {t('extend')}
                            </Button>
                          )}
                          <Button size="sm" disabled={changing.isLoading} onClick={() => void record(r, 'answer')} aria-label={t('answerLabel', { person })}>
                            {t('answer')}
                          </Button>
                        </Inline>
                      )}
                    </Td>
                  </Tr>
                  {correcting === r.id && (
                    <Tr>
                      <Td colSpan={7}>
                        <InView>
                          <CorrectionForm request={r} onDone={() => setCorrecting(null)} />
                        </InView>
                      </Td>
                    </Tr>
                  )}
                </Fragment>
              );
            })}
          </TBody>
        </Table>
      )}
    </>
  );
}
