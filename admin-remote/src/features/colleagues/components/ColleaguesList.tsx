import { useState } from 'react';
import { Button, ErrorPanel, useToast } from 'shared-ui';
import { Badge, Table, TBody, Td, Th, THead, Tr } from 'shared-ui/data';
import { ConfirmDialog } from 'shared-ui/forms';
import { inMY, serverMessage } from 'shared-api';
import type { StaffAccount } from 'shared-api/accounts';
import { useDisableAccountMutation, useStaffAccountsQuery } from '../api/colleaguesApi';

export const ColleaguesText = {
  caption: 'Staff accounts',
  loadFailed: 'The staff accounts could not be loaded.',
  never: 'Never',
  active: 'Active',
  disabled: 'Disabled',
  disable: 'Disable',
  confirmTitle: 'Disable this account?',
  confirm: 'Disable account',
  disabledToast: 'Account disabled',
  failed: 'The account could not be disabled. Please try again.',
  you: '(you)',
} as const;

const when = (iso: string | null) => (iso ? `${inMY(iso).format('D MMM YYYY, h:mm A')} (GMT+8)` : ColleaguesText.never);
const nameOf = (a: StaffAccount) => a.username || a.email;

/** Every staff account with Disable (after a confirm); the server refuses the last active one. */
export function ColleaguesList({ currentUserId, refreshKey = 0 }: { currentUserId: number; refreshKey?: number }) {
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
    if ('error' in result) toast.error(serverMessage(result.error) ?? ColleaguesText.failed);
    else toast.success(result.data || ColleaguesText.disabledToast);
    void refetch();
  };

  if (isError) return <ErrorPanel message={ColleaguesText.loadFailed} onRetry={() => void refetch()} />;
  return (
    <>
      <Table aria-busy={isLoading || undefined} aria-label={ColleaguesText.caption}>
        <THead>
          <Tr>
            <Th scope="col">Email</Th>
            <Th scope="col">Username</Th>
            <Th scope="col">Created</Th>
            <Th scope="col">Last login</Th>
            <Th scope="col">Status</Th>
            <Th scope="col">Action</Th>
          </Tr>
        </THead>
        <TBody>
          {(accounts ?? []).map((a) => (
            <Tr key={a.id}>
              <Td>
                {a.email} {a.id === currentUserId && ColleaguesText.you}
              </Td>
              <Td>{a.username ?? ''}</Td>
              <Td>{when(a.createdAt)}</Td>
              <Td>{when(a.lastLoginAt)}</Td>
              <Td>
                {a.disabledAt ? <Badge tone="neutral">{ColleaguesText.disabled}</Badge> : <Badge tone="success">{ColleaguesText.active}</Badge>}
              </Td>
              <Td>
                {!a.disabledAt && (
                  <Button variant="danger" size="sm" onClick={() => setPending(a)} aria-label={`${ColleaguesText.disable} ${a.email}`}>
                    {ColleaguesText.disable}
                  </Button>
                )}
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={ColleaguesText.confirmTitle}
        message={
          pending
            ? `${nameOf(pending)} will be logged out at once and can no longer log in. This cannot be undone here.${pending.id === currentUserId ? ' This is your own account.' : ''}`
            : ''
        }
        confirmLabel={ColleaguesText.confirm}
        onConfirm={onConfirm}
        busy={disabling}
      />
    </>
  );
}
