import { useState } from 'react';
import { Button, ErrorPanel, Inline, useCatalog, useToast, type Translate } from 'shared-ui';
import { Badge, DataTable, type DataColumn } from 'shared-ui/data';
import { ConfirmDialog } from 'shared-ui/forms';
import { serverMessage } from 'shared-api';
import type { StaffRole } from 'shared-api/schemas';
import { formatInstant } from '../../../lib/format';
import type { StaffAccount } from 'shared-api/accounts';
import { english } from '../../../lib/i18n';
import {
  useDisableAccountMutation,
  useResetSecondFactorMutation,
  useSetAccountRoleMutation,
  useStaffAccountsQuery,
} from '../api/colleaguesApi';
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
  'roleStaff',
  'roleAdmin',
  'secondFactorSet',
  'secondFactorMissing',
  'secondFactorNotNeeded',
  'makeAdmin',
  'makeStaff',
  'demoteOwnTitle',
  'demoteOwnConfirm',
  'resetSecondFactor',
  'resetTitle',
  'resetConfirm',
);

const when = (t: Translate<typeof en>, iso: string | null) => (iso ? t('when', { time: formatInstant(iso) }) : t('never'));
const nameOf = (a: StaffAccount) => a.username || a.email;

/** What waits for a confirm: a disable, a second factor's reset, or the signed-in admin making themself staff. */
type Pending = { kind: 'disable' | 'reset' | 'demoteOwn'; account: StaffAccount };

/**
 * Every staff account with its role and (admins) whether the second factor is set up; Make admin / Make staff, Reset
 * second factor for a colleague who has one, and Disable (after a confirm). The server refuses the last active
 * account, the last enabled admin (made staff or disabled) and a reset of your own second factor: its words are shown.
 */
export function ColleaguesList({ currentUserId, refreshKey = 0 }: { currentUserId: number; refreshKey?: number }) {
  const { t } = useCatalog(colleaguesCatalog);
  const toast = useToast();
  const { data: accounts, isLoading, isError, refetch } = useStaffAccountsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [disableAccount, { isLoading: disabling }] = useDisableAccountMutation();
  const [setRole, { isLoading: changingRole }] = useSetAccountRoleMutation();
  const [resetSecondFactor, { isLoading: resetting }] = useResetSecondFactorMutation();
  const [pending, setPending] = useState<Pending | null>(null);
  // The dialog keeps its words while it closes.
  const [shown, setShown] = useState<Pending | null>(null);
  const [seenKey, setSeenKey] = useState(refreshKey);
  if (seenKey !== refreshKey) {
    setSeenKey(refreshKey);
    void refetch();
  }

  const changeRole = async (account: StaffAccount, role: StaffRole) => {
    const result = await setRole({ id: account.id, role, self: account.id === currentUserId });
    setPending(null);
    if ('error' in result) toast.error(serverMessage(result.error) ?? t('roleFailed'));
    else toast.success(t('roleChanged', { name: nameOf(account), role }));
    void refetch();
  };

  const onConfirm = async () => {
    if (!pending) return;
    const { kind, account } = pending;
    if (kind === 'demoteOwn') return changeRole(account, 'staff');
    if (kind === 'reset') {
      const result = await resetSecondFactor(account.id);
      setPending(null);
      if ('error' in result) toast.error(serverMessage(result.error) ?? t('resetFailed'));
      else toast.success(t('resetDone', { name: nameOf(account) }));
      void refetch();
      return;
    }
    const result = await disableAccount(account.id);
    setPending(null);
    if ('error' in result) toast.error(serverMessage(result.error) ?? t('failed'));
    else toast.success(result.data || t('disabledToast'));
    void refetch();
  };

  if (isError) return <ErrorPanel message={t('loadFailed')} onRetry={() => void refetch()} />;
  const secondFactor = (a: StaffAccount) => {
    if (a.secondFactor) return <Badge tone="success">{t('secondFactorSet')}</Badge>;
    if (a.role === 'admin') return <Badge tone="warning">{t('secondFactorMissing')}</Badge>;
    return t('secondFactorNotNeeded');
  };
  const roleButton = (a: StaffAccount) => {
    const own = a.id === currentUserId;
    if (a.role === 'staff') {
      return (
        <Button variant="secondary" size="sm" disabled={changingRole} onClick={() => void changeRole(a, 'admin')} aria-label={t('makeAdminLabel', { email: a.email })}>
          {t('makeAdmin')}
        </Button>
      );
    }
    return (
      <Button
        variant="secondary"
        size="sm"
        disabled={changingRole}
        onClick={() => (own ? setPending({ kind: 'demoteOwn', account: a }) : void changeRole(a, 'staff'))}
        aria-label={t('makeStaffLabel', { email: a.email })}
      >
        {t('makeStaff')}
      </Button>
    );
  };
  const columns: DataColumn<StaffAccount>[] = [
    {
      id: 'email',
      header: t('columnEmail'),
      cell: (a) => `${a.email} ${a.id === currentUserId ? t('you') : ''}`.trim(),
    },
    { id: 'username', header: t('columnUsername'), cell: (a) => a.username ?? '' },
    {
      id: 'role',
      header: t('columnRole'),
      cell: (a) => (a.role === 'admin' ? <Badge tone="info">{t('roleAdmin')}</Badge> : <Badge tone="neutral">{t('roleStaff')}</Badge>),
    },
    { id: 'secondFactor', header: t('columnSecondFactor'), cell: secondFactor },
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
          <Inline>
            {roleButton(a)}
            {a.secondFactor && a.id !== currentUserId && (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setPending({ kind: 'reset', account: a })}
                aria-label={t('resetSecondFactorLabel', { email: a.email })}
              >
                {t('resetSecondFactor')}
              </Button>
            )}
            <Button variant="danger" size="sm" onClick={() => setPending({ kind: 'disable', account: a })} aria-label={t('disableLabel', { email: a.email })}>
              {t('disable')}
            </Button>
          </Inline>
        ),
    },
  ];
  const dialog = (p: Pending) => {
    const name = nameOf(p.account);
    if (p.kind === 'reset') return { title: t('resetTitle'), message: t('resetMessage', { name }), confirmLabel: t('resetConfirm') };
    if (p.kind === 'demoteOwn') return { title: t('demoteOwnTitle'), message: t('demoteOwnMessage'), confirmLabel: t('demoteOwnConfirm') };
    const own = p.account.id === currentUserId;
    return { title: t('confirmTitle'), message: t(own ? 'confirmOwnMessage' : 'confirmMessage', { name }), confirmLabel: t('confirm') };
  };
  if (pending && pending !== shown) setShown(pending);
  const words = shown ? dialog(shown) : { title: t('confirmTitle'), message: '', confirmLabel: t('confirm') };
  return (
    <>
      <DataTable columns={columns} rows={accounts} rowKey={(a) => a.id} label={t('caption')} busy={isLoading} loadingRows={3} />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        {...words}
        onConfirm={() => void onConfirm()}
        busy={disabling || resetting || changingRole}
      />
    </>
  );
}
