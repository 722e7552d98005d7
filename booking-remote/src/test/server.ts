import { webcrypto } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { apiConfig, brand, ErrorCode, PAYMENT_KEY_HEADER, type PaymentStatus } from 'shared-api';
import { HoldMessage, initiateBodySchema } from 'shared-api/schemas';
import { documentsView, fail, HOLD_TOKEN, legacyList, MANAGE_TOKEN, manageView, ok, paymentSession, paymentStatusResult, publicPaymentStatus, publicSlot } from './fixtures';

/** Absolute URL on the API the store talks to (fetchBaseQuery needs one under Node). */
export const apiUrl = (path: string) => `${apiConfig.baseUrl}${path}`;

/** True when a request carries the payment's key (the mock payment's hold token), as only the paying browser can. */
export const sentPaymentKey = (request: Request): boolean => request.headers.get(PAYMENT_KEY_HEADER) === HOLD_TOKEN;

/** A status answer as the server gives it: the whole receipt with the payment's key, what anyone may see without. */
export const statusAnswer = (request: Request, status: PaymentStatus = 'completed') =>
  HttpResponse.json(ok(sentPaymentKey(request) ? paymentStatusResult(status) : publicPaymentStatus(status)));

/** Handlers that answer as the real server does on a healthy day; tests override them with server.use. */
export const defaultHandlers = [
  http.get(apiUrl('/health'), () =>
    HttpResponse.json(
      ok({
        status: 'healthy',
        database: 'database_healthy',
        databaseDetails: { driver: 'pglite', latencyMs: 2 },
        message: 'Database connection successful',
      }),
    ),
  ),
  http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot()]))),
  http.get(apiUrl('/api/payment/pricing'), () =>
    HttpResponse.json(ok({ pricing: brand.schools.map((s) => ({ schoolName: s.name, totalFee: s.feeSen })) })),
  ),
  http.post(apiUrl('/slot/:id/reserve'), ({ params }) =>
    HttpResponse.json(
      ok({ slotId: Number(params.id), token: 'hold-token-0123456789abcdef', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }),
    ),
  ),
  http.post(apiUrl('/slot/:id/release'), () => HttpResponse.json(ok(null, 'Released'))),
  // As the server: a body the contract refuses gets its first rule's words (so the dialog's tests show what it sends).
  http.post(apiUrl('/api/payment/initiate'), async ({ request }) => {
    const body = initiateBodySchema.safeParse(await request.json());
    if (!body.success) return HttpResponse.json(fail(body.error.issues[0].message, ErrorCode.VALIDATION_ERROR), { status: 400 });
    return HttpResponse.json(ok({ paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) }));
  }),
  http.get(apiUrl('/api/payment/status/reference/:reference'), ({ request }) => statusAnswer(request)),
  http.get(apiUrl('/api/payment/status/:id'), ({ request }) => statusAnswer(request)),
  http.post(apiUrl('/api/booking/manage-link'), ({ request }) =>
    sentPaymentKey(request)
      ? HttpResponse.json(ok({ token: MANAGE_TOKEN, path: `/booking/manage/${MANAGE_TOKEN}` }, 'Manage link created'))
      : HttpResponse.json(fail('Only the browser that made this payment can get a link here.', ErrorCode.FORBIDDEN), { status: 403 }),
  ),
  http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(ok(manageView(), 'Booking found'))),
  http.get(apiUrl('/api/booking/manage/:token/documents'), () => HttpResponse.json(ok(documentsView()))),
];

export const server = setupServer(...defaultHandlers);

/** Starts msw for the current test file; any request without a handler fails the test. */
export function startMswServer(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}

// jsdom has no crypto.subtle; the hold-limit challenges (and the dialog's solver) need the WebCrypto every browser has.
if (!globalThis.crypto.subtle) Object.defineProperty(globalThis.crypto, 'subtle', { value: webcrypto.subtle });

const CHALLENGE_SECRET = 'msw-hold-challenge-secret';

/** The 429 HOLD_LIMIT answer: with a real ALTCHA challenge (`work` digests to solve), or plain (no more holds). */
export async function holdLimitedResponse(work: number | null): Promise<Response> {
  const challenge =
    work === null
      ? null
      : await createChallenge({ algorithm: 'SHA-256', cost: 1, counter: work, deriveKey, hmacSignatureSecret: CHALLENGE_SECRET, data: { level: 1, work } });
  const message = challenge ? 'Many slots are on hold from your connection. Solve the proof-of-work challenge in data.challenge.' : HoldMessage.limit;
  return HttpResponse.json({ success: false, data: { challenge }, message, error: ErrorCode.HOLD_LIMIT }, { status: 429 });
}

/** True when `proofOfWork` is a solution of a challenge this mock server signed. */
export async function proofIsValid(proofOfWork: unknown): Promise<boolean> {
  if (typeof proofOfWork !== 'string') return false;
  const { challenge, solution } = JSON.parse(atob(proofOfWork)) as { challenge: Challenge; solution: Solution };
  return (await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret: CHALLENGE_SECRET })).verified;
}

/**
 * A route past the client's free holds, as the server answers it: 429 HOLD_LIMIT with a challenge until the request
 * carries a valid proof of work, then `answer`. Records each request body.
 */
export function holdLimitedRoute(path: string, answer: () => Response, work = 2000) {
  const bodies: Array<Record<string, unknown>> = [];
  server.use(
    http.post(apiUrl(path), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      return (await proofIsValid(body.proofOfWork)) ? answer() : holdLimitedResponse(work);
    }),
  );
  return bodies;
}
