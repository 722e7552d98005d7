import type { WhatsAppApi, WhatsAppSendResult } from '../outbox';

/**
 * Meta's error codes that mean "not now" (throttled or a passing fault), retried with backoff like a 429 or a 5xx:
 * 1 unknown, 2 service temporarily unavailable, 4 app rate limit, 80007 account rate limit, 130429 throughput,
 * 131000 something went wrong, 131016 service unavailable, 131048 spam rate limit, 131056 pair rate limit.
 * Every other code (131026 not on WhatsApp, 132000 parameter count, 132001 template missing, 132015 paused,
 * 131047 outside the 24 h window, 190 bad token…) will not change by waiting.
 */
export const RETRY_CODES: ReadonlySet<number> = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056]);

export type WhatsAppApiOptions = {
  /** https://graph.facebook.com in production; the fake's address in tests and fake mode. */
  baseUrl: string;
  /** e.g. v21.0 */
  graphVersion: string;
  phoneNumberId: string;
  accessToken: string;
  timeoutMs?: number;
  /** The transport (fake mode hands in one that reaches the fake inside this process). */
  fetch?: typeof fetch;
};

type CloudAnswer = {
  messages?: { id?: unknown }[];
  error?: { code?: unknown; message?: unknown; error_data?: { details?: unknown } };
};

/**
 * The Cloud API adapter: `POST {base}/{version}/{phone-number-id}/messages` with the bearer token and the request the
 * catalogue built. Answers, never throws: `{ok, messageId}` (the wamid), or `{ok: false, retry, status, code, title}`
 * where retry is true for a lost connection, a timeout, 429, 5xx and Meta's throttling codes.
 */
export function createWhatsAppApi(options: WhatsAppApiOptions): WhatsAppApi {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/${options.graphVersion}/${encodeURIComponent(options.phoneNumberId)}/messages`;
  const send = options.fetch ?? fetch;
  return {
    async send(body): Promise<WhatsAppSendResult> {
      let res: Response;
      try {
        res = await send(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        });
      } catch (err) {
        return { ok: false, retry: true, status: 0, title: `No answer from WhatsApp: ${(err as Error).message}` };
      }
      const answer = (await res.json().catch(() => ({}))) as CloudAnswer;
      const id = answer.messages?.[0]?.id;
      if (res.ok && typeof id === 'string' && id) return { ok: true, messageId: id };
      const code = typeof answer.error?.code === 'number' ? answer.error.code : undefined;
      const message = typeof answer.error?.message === 'string' ? answer.error.message : res.ok ? 'No message id in the answer' : `HTTP ${res.status}`;
      const details = typeof answer.error?.error_data?.details === 'string' ? answer.error.error_data.details : '';
      const retry = res.status === 429 || res.status >= 500 || (code !== undefined && RETRY_CODES.has(code));
      return { ok: false, retry, status: res.status, code, title: (details && details !== message ? `${message}: ${details}` : message).slice(0, 500) };
    },
  };
}
