import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { apiConfig, brand } from 'shared-api';
import { legacyList, ok, paymentSession, paymentStatusResult, publicSlot } from './fixtures';

/** Absolute URL on the API the store talks to (fetchBaseQuery needs one under Node). */
export const apiUrl = (path: string) => `${apiConfig.baseUrl}${path}`;

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
  http.post(apiUrl('/api/payment/initiate'), () =>
    HttpResponse.json(ok({ paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }) })),
  ),
  http.get(apiUrl('/api/payment/status/reference/:reference'), () => HttpResponse.json(ok(paymentStatusResult('completed')))),
  http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('completed')))),
];

export const server = setupServer(...defaultHandlers);

/** Starts msw for the current test file; any request without a handler fails the test. */
export function startMswServer(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}
