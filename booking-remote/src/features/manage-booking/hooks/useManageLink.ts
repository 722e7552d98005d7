import { useEffect, useRef } from 'react';
import { useCreateManageLinkMutation } from '../api/manageApi';

export type ManageLinkState = { kind: 'none' } | { kind: 'loading' } | { kind: 'ready'; path: string };

/**
 * The manage link for a payment this browser made: asked for once per payment id (the server mints a token per ask,
 * up to a limit). Without an id, or when the server refuses, there is no link here (the mail has one).
 */
export function useManageLink(paymentId: string | null): ManageLinkState {
  const [create, result] = useCreateManageLinkMutation();
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (!paymentId || asked.current === paymentId) return;
    asked.current = paymentId;
    void create(paymentId);
  }, [paymentId, create]);

  if (!paymentId) return { kind: 'none' };
  if (result.data && result.originalArgs === paymentId) return { kind: 'ready', path: result.data.path };
  if (result.isError) return { kind: 'none' };
  return { kind: 'loading' };
}
