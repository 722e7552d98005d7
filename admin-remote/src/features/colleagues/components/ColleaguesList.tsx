import { useState } from 'react';
import { Button, ErrorPanel, useCatalog, useToast, type Translate } from 'shared-ui';
import { Badge, DataTable, type DataColumn } from 'shared-ui/data';
import { ConfirmDialog } from 'shared-ui/forms';
import { serverMessage } from 'shared-api';
import { formatInstant } from '../../../lib/format';
import type { StaffAccount } from 'shared-api/accounts';
import { english } from '../../../lib/i18n';
import { useDisableAccountMutation, useStaffAccountsQuery } from '../api/colleaguesApi';
import { colleaguesCatalog } from '../i18n';
import en from '../locales/en.json';

/** English texts, for tests. */
export const ColleaguesText = english(
  en,
  'caption',
  'loadFailed',
  'never',
  'active',
  'disabled',
  'disable',
  'confirmTitle',
  'confirm',
  'disabledToast',
  'failed',
  'you',
);

const when = (t: Translate<typeof en>, iso: string | null) => (iso ? t('when', { time: formatInstant(iso) }) : t('never'));
const nameOf = (a: StaffAccount) => a.username || a.email;

/** Every staff account with Disable (after a confirm); the server refuses the last active one. */
export function ColleaguesList({ currentUserId, refreshKey = 0 }: { currentUserId: number; refreshKey?: number }) {
  const { t } = useCatalog(colleaguesCatalog);
  const toast = useToast();
  const { data: accounts, isLoading, isError, refetch } = useStaffAccountsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [disableAccount, { isLoading: disabling }] = useDisableAccountMutation();
  const [pending, setPending] = useState<StaffAccount | null>(null);
  const [seenKey, setSeenKey] = useState(refreshKey);
  if (seenKey !== refreshKey) {
    setSeenKey(refreshKey);
    void refetch();
  }

  const onConfirm = async () => {
    if (!pending) return;
    const result = await disableAccount(pending.id);
    setPending(null);
    if ('error' in result) toast.error(serverMessage(result.error) ?? t('failed'));
    else toast.success(result.data || t('disabledToast'));
    void refetch();
  };

  if (isError) return <ErrorPanel message={t('loadFailed')} onRetry={() => void refetch()} />;
  const columns: DataColumn<StaffAccount>[] = [
    {
      id: 'email',
      header: t('columnEmail'),
      cell: (a) => `${a.email} ${a.id === currentUserId ? t('you') : ''}`.trim(),
    },
    { id: 'username', header: t('columnUsername'), cell: (a) => a.username ?? '' },
    { id: 'created', header: t('columnCreated'), cell: (a) => when(t, a.createdAt) },
    { id: 'lastLogin', header: t('columnLastLogin'), cell: (a) => when(t, a.lastLoginAt) },
    {
      id: 'status',
      header: t('columnStatus'),
      cell: (a) => (a.disabledAt ? <Badge tone="neutral">{t('disabled')}</Badge> : <Badge tone="success">{t('active')}</Badge>),
    },
    {
      id: 'action',
      header: t('columnAction'),
      unlabelled: true,
      cell: (a) =>
        !a.disabledAt && (
          <Button variant="danger" size="sm" onClick={() => setPending(a)} aria-label={t('disableLabel', { email: a.email })}>
            {t('disable')}
          </Button>
        ),
    },
  ];
  return (
    <>
      <DataTable columns={columns} rows={accounts} rowKey={(a) => a.id} label={t('caption')} busy={isLoading} loadingRows={3} />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={t('confirmTitle')}
        message={
          pending
            ? t(pending.id === currentUserId ? 'confirmOwnMessage' : 'confirmMessage', {
                name: nameOf(pending),
              })
            : ''
        }
        confirmLabel={t('confirm')}
        onConfirm={onConfirm}
        busy={disabling}
      />
    </>
  );
}
