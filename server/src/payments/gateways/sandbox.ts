import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { PaymentFailureCode } from 'shared-api/contract';
import type { Db } from '../../base/db/connection';
import { sandboxSessions, type SandboxSessionRow } from './tables';
import {
  GatewayError,
  SignatureError,
  type CheckoutSession,
  type CreateSessionInput,
  type GatewayEvent,
  type GatewayState,
  type PaymentGateway,
  type RefundResult,
  type SessionStatus,
} from './types';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
export const SANDBOX_TIMESTAMP_HEADER = 'x-sandbox-timestamp';
/** A callback older (or newer) than this is refused, so a captured one cannot be replayed later. */
export const SANDBOX_MAX_SKEW_SECONDS = 300;
const RETRY_DELAYS_MS = [2_000, 10_000];

export type SandboxOptions = {
  db: Db;
  /** The HMAC key, asked for when first needed (it may live in a database that is down at start). */
  secret: () => Promise<string>;
  /** Read at each session (tests learn their port after the app is built). */
  apiPublicUrl: () => string;
  callbackDelayMs: number;
  dropCallbacks: boolean;
  log?: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
};

export type SandboxAction = 'pay' | 'fail' | 'cancel';

export const signSandboxBody = (secret: string, timestamp: string, rawBody: string | Buffer): string =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');

/** Headers a sandbox callback carries for `rawBody` (tests build their own callbacks with this). */
export function sandboxCallbackHeaders(secret: string, rawBody: string, now = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  return {
    'content-type': 'application/json',
    [SANDBOX_TIMESTAMP_HEADER]: timestamp,
    [SANDBOX_SIGNATURE_HEADER]: `sha256=${signSandboxBody(secret, timestamp, rawBody)}`,
  };
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const stateOf = (row: SandboxSessionRow, now = new Date()): GatewayState =>
  row.status === 'created' ? (row.expiresAt <= now ? 'expired' : 'pending') : row.status === 'paid' ? 'paid' : row.status;

/**
 * The built-in gateway: its sessions live in its own table (as they would on a gateway's side), its checkout page is
 * served by the API (payments/gateways/sandbox-routes.ts), and it notifies the API with HMAC-signed HTTP callbacks.
 */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: SandboxOptions) {}

  async createSession(input: CreateSessionInput): Promise<CheckoutSession> {
    const id = `sbx_${randomBytes(12).toString('hex')}`;
    const [row] = await this.options.db
      .insert(sandboxSessions)
      .values({
        id,
        reference: input.reference,
        amountSen: input.amountSen,
        description: input.description,
        customerEmail: input.customer.email,
        allowedMethods: input.allowedMethods.join(','),
        expiresAt: input.expiresAt,
        successUrl: input.successUrl,
        failureUrl: input.failureUrl,
        cancelUrl: input.cancelUrl,
        callbackUrl: input.callbackUrl,
      })
      .returning();
    return { sessionId: row.id, checkoutUrl: `${this.options.apiPublicUrl()}/sandbox-gateway/checkout/${row.id}`, expiresAt: row.expiresAt };
  }

  async verifyCallback(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<GatewayEvent> {
    const timestamp = header(headers, SANDBOX_TIMESTAMP_HEADER);
    const signature = header(headers, SANDBOX_SIGNATURE_HEADER)?.replace(/^sha256=/, '');
    if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp) || !/^[0-9a-f]{64}$/.test(signature))
      throw new SignatureError('missing or malformed signature headers');
    const expected = Buffer.from(signSandboxBody(await this.options.secret(), timestamp, rawBody), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) throw new SignatureError('signature does not match');
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > SANDBOX_MAX_SKEW_SECONDS) throw new SignatureError('stale timestamp');
    let body: { id?: unknown; data?: { session_id?: unknown; reference?: unknown; status?: unknown; method?: unknown; amount?: unknown } };
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new SignatureError('body is not JSON');
    }
    const data = body.data ?? {};
    const state = data.status;
    if (typeof body.id !== 'string' || typeof data.session_id !== 'string' || typeof state !== 'string')
      throw new SignatureError('callback lacks id, session or status');
    if (!['pending', 'paid', 'failed', 'cancelled', 'expired', 'refunded'].includes(state)) throw new SignatureError('unknown status');
    return {
      eventId: body.id,
      sessionId: data.session_id,
      reference: typeof data.reference === 'string' ? data.reference : null,
      state: state as GatewayState,
      method: typeof data.method === 'string' ? data.method : null,
      amountSen: typeof data.amount === 'number' ? data.amount : null,
    };
  }

  async fetchStatus(sessionId: string): Promise<SessionStatus> {
    const row = await this.find(sessionId);
    if (!row) throw new GatewayError(`sandbox session ${sessionId} not found`);
    // The sandbox takes exactly the session's amount, so that is what was paid once it is paid.
    const paid = row.status === 'paid' || row.status === 'refunded';
    return { state: stateOf(row), method: row.method, amountSen: paid ? row.amountSen : null };
  }

  async cancel(sessionId: string): Promise<boolean> {
    await this.options.db
      .update(sandboxSessions)
      .set({ status: 'cancelled' })
      .where(and(eq(sandboxSessions.id, sessionId), eq(sandboxSessions.status, 'created')));
    const row = await this.find(sessionId);
    return !!row && row.status !== 'paid';
  }

  /** Gives back `amountSen` of a paid session, in parts too (one child's share), never more than was paid in all. */
  async refund(sessionId: string, amountSen: number): Promise<RefundResult> {
    const done = { refundId: `sbx_refund_${sessionId}`, settled: true };
    const [row] = await this.options.db
      .update(sandboxSessions)
      .set({ status: 'refunded', refundedAt: sql`now()`, refundedSen: sql`${sandboxSessions.refundedSen} + ${amountSen}` })
      .where(
        and(
          eq(sandboxSessions.id, sessionId),
          sql`${sandboxSessions.status} IN ('paid', 'refunded') AND ${sandboxSessions.refundedSen} + ${amountSen} <= ${sandboxSessions.amountSen}`,
        ),
      )
      .returning();
    if (row) return { ...done, refundId: `sbx_refund_${sessionId}_${row.refundedSen}` };
    const current = await this.find(sessionId);
    if (current?.status === 'refunded') return done;
    throw new GatewayError(`sandbox session ${sessionId} is not paid, so it cannot be refunded`);
  }

  async ping(): Promise<boolean> {
    await this.options.db.select({ id: sandboxSessions.id }).from(sandboxSessions).limit(1);
    return true;
  }

  find = async (sessionId: string): Promise<SandboxSessionRow | undefined> =>
    (await this.options.db.select().from(sandboxSessions).where(eq(sandboxSessions.id, sessionId)))[0];

  /**
   * A button on the checkout page: moves an open session to paid / failed / cancelled (an expired or finished one
   * is left alone), queues the signed callback and returns where the browser goes next.
   */
  async act(sessionId: string, action: SandboxAction, method: string | null): Promise<{ redirect: string; state: GatewayState } | null> {
    const status = action === 'pay' ? 'paid' : action === 'fail' ? 'failed' : 'cancelled';
    const [row] = await this.options.db
      .update(sandboxSessions)
      .set({ status, method, paidAt: action === 'pay' ? sql`now()` : null })
      .where(and(eq(sandboxSessions.id, sessionId), eq(sandboxSessions.status, 'created'), gt(sandboxSessions.expiresAt, sql`now()`)))
      .returning();
    const current = row ?? (await this.find(sessionId));
    if (!current) return null;
    const state = stateOf(current);
    if (row) this.queueCallback(row, state);
    const url = new URL(state === 'paid' ? current.successUrl : state === 'cancelled' ? current.cancelUrl : current.failureUrl);
    if (state !== 'paid') {
      // A code: the site's failure page says it in the parent's language (it shows no free text from its URL).
      const code = state === 'expired' ? PaymentFailureCode.expired : state === 'cancelled' ? PaymentFailureCode.cancelled : PaymentFailureCode.declined;
      url.searchParams.set('error', code);
    }
    return { redirect: url.toString(), state };
  }

  private queueCallback(row: SandboxSessionRow, state: GatewayState): void {
    const { log, callbackDelayMs, dropCallbacks, secret } = this.options;
    if (dropCallbacks) {
      log?.info({ sessionId: row.id, state }, 'sandbox: callback dropped (SANDBOX_CALLBACK_DROP)');
      return;
    }
    const body = JSON.stringify({
      id: `evt_${randomBytes(12).toString('hex')}`,
      type: `checkout.${state}`,
      created: Math.floor(Date.now() / 1000),
      data: { session_id: row.id, reference: row.reference, status: state, method: row.method, amount: row.amountSen, currency: 'MYR' },
    });
    const attempt = (n: number, delay: number) => {
      const timer = setTimeout(async () => {
        this.timers.delete(timer);
        try {
          const res = await fetch(row.callbackUrl, {
            method: 'POST',
            headers: sandboxCallbackHeaders(await secret(), body),
            body,
            signal: AbortSignal.timeout(10_000),
          });
          if (res.ok) return;
          throw new Error(`HTTP ${res.status}`);
        } catch (err) {
          log?.warn({ sessionId: row.id, attempt: n + 1, err: (err as Error).message }, 'sandbox: callback delivery failed');
          if (n < RETRY_DELAYS_MS.length) attempt(n + 1, RETRY_DELAYS_MS[n]);
        }
      }, delay);
      timer.unref();
      this.timers.add(timer);
    };
    attempt(0, callbackDelayMs);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
