import { useEffect, useRef } from 'react';
import { paymentKeyFor } from '../../../lib/paymentKeys';
import { useCreateManageLinkMutation } from '../api/manageApi';

export type ManageLinkState = { kind: 'none' } | { kind: 'loading' } | { kind: 'ready'; path: string };

/**
 * The manage link for a payment this browser made: asked for once per payment id, with the payment's key this browser
 * kept (the server mints a token per ask, up to a limit). Without a key (another device), or when the server refuses,
 * there is no link here (the mail has one).
 */
export function useManageLink(paymentId: string | null): ManageLinkState {
  const [create, result] = useCreateManageLinkMutation();
  const asked = useRef<string | null>(null);
  const key = paymentKeyFor(paymentId);
  useEffect(() => {
    if (!paymentId || !key || asked.current === paymentId) return;
    asked.current = paymentId;
    void create({ id: paymentId, key });
  }, [paymentId, key, create]);

  if (!paymentId || !key) return { kind: 'none' };
  if (result.data && result.originalArgs?.id === paymentId) return { kind: 'ready', path: result.data.path };
  if (result.isError) return { kind: 'none' };
  return { kind: 'loading' };
}
