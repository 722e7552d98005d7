import { randomBytes } from 'node:crypto';
import type { WhatsAppApi, WhatsAppSendResult } from './outbox';

/**
 * A plain Cloud API client (`POST {base}/{version}/{phone-number-id}/messages`, bearer token), used until part 1's
 * adapter (`cloud/`, createWhatsAppApi) is wired in: 429 and 5xx (and a lost connection) are worth retrying, any other
 * refusal is not; the platform's error code and title travel with the answer.
 */
export function httpWhatsAppApi(options: { baseUrl: string; graphVersion: string; phoneNumberId: string; accessToken: string; timeoutMs?: number }): WhatsAppApi {
  const url = `${options.baseUrl.replace(/\/$/, '')}/${options.graphVersion}/${options.phoneNumberId}/messages`;
  return {
    async send(body): Promise<WhatsAppSendResult> {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        });
      } catch (err) {
        return { ok: false, retry: true, status: 0, title: (err as Error).message };
      }
      const answer = (await res.json().catch(() => ({}))) as { messages?: { id?: string }[]; error?: { code?: number; message?: string; error_data?: { details?: string } } };
      const id = answer.messages?.[0]?.id;
      if (res.ok && id) return { ok: true, messageId: id };
      return { ok: false, retry: res.status === 429 || res.status >= 500, status: res.status, code: answer.error?.code, title: answer.error?.message ?? `HTTP ${res.status}` };
    },
  };
}

/** WHATSAPP_API=fake until part 1's fake lands: accepts every message with a fresh id, sends no webhooks. */
export const acceptingWhatsAppApi = (): WhatsAppApi => ({
  send: async () => ({ ok: true, messageId: `wamid.${randomBytes(24).toString('base64url')}` }),
});
