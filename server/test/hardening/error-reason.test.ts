import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorCode, errorEnvelope, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS, ValidationMessage } from 'shared-api/contract';
import { z } from 'zod';
import { AppError } from '../../src/base/errors';
import { installErrorHandling } from '../../src/base/plugins/error-handler';
import { errorResponses } from '../../src/base/routes';
import { insertSlot, stopTestApp, type TestContext } from '../helpers';
import { initiateBody } from '../payments/support';
import { startHardeningApp } from './routes';

// Refusals and validation failures answer, beside the spec's English `message`, a `reason` a program can read: the
// rule broken, its values and the field (issue 34). A client says it in the parent's language from the rule.
jest.setTimeout(60_000);

describe('the reason of a validation failure, on the API', () => {
  let ctx: TestContext;
  let slot: Awaited<ReturnType<typeof insertSlot>>;
  beforeAll(async () => {
    ctx = await startHardeningApp('pglite');
    slot = await insertSlot(ctx.database, 30);
  });
  afterAll(() => stopTestApp(ctx));

  const initiate = (extra: Record<string, unknown>) =>
    ctx.app.inject({ method: 'POST', url: '/api/payment/initiate', payload: initiateBody(slot, extra) });

  it('names the contract rule a field broke, with the values its words name', async () => {
    const res = await initiate({ visitorContactNo: '012 345' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      data: null,
      message: ValidationMessage.phoneInvalid,
      error: ErrorCode.VALIDATION_ERROR,
      reason: { rule: 'phoneInvalid', params: { min: PHONE_MIN_DIGITS, max: PHONE_MAX_DIGITS }, field: 'visitorContactNo' },
    });
  });

  it.each([
    [{ visitorName: ' A ' }, { rule: 'nameTooShort', params: { min: 2 }, field: 'visitorName' }],
    [{ visitorEmail: '  ' }, { rule: 'emailRequired', field: 'visitorEmail' }],
    [{ childYear: 'Form 9' }, { rule: 'childYearInvalid', field: 'childYear' }],
  ])('names the rule of %j', async (extra, reason) => {
    const res = await initiate(extra);
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toEqual(reason);
    expect(res.json().message).toBe(ValidationMessage[reason.rule as keyof typeof ValidationMessage]);
  });

  it('names zod’s own check, with its numbers, where the schema has no rule of its words', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: `/slot/${slot.id}/reserve`, payload: { minutes: 99 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^minutes: /);
    expect(res.json().reason).toEqual({ rule: 'too_big', params: { origin: 'number', maximum: 15 }, field: 'minutes' });
  });

  it('is on /docs in every route’s error answer', async () => {
    const doc = (await ctx.app.inject('/docs/json')).json();
    const answer = doc.paths['/api/payment/initiate'].post.responses['400'].content['application/json'].schema;
    expect(answer.required).not.toContain('reason');
    expect(answer.properties.reason).toMatchObject({
      type: 'object',
      required: ['rule'],
      properties: { rule: { type: 'string' }, params: { type: 'object' }, field: { type: 'string' } },
    });
  });
});

describe('the reason of an AppError', () => {
  /** The error handler alone, with a route that throws what it is given. */
  async function appThrowing(error: AppError) {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandling(app);
    app.get('/refuse', { schema: { response: { 200: z.object({}), ...errorResponses(409, 429) } } }, () => {
      throw error;
    });
    await app.ready();
    return app;
  }

  it('answers the reason given with withReason() beside the message', async () => {
    const app = await appThrowing(new AppError(409, ErrorCode.SLOT_NOT_AVAILABLE, 'This visit is over.').withReason({ rule: 'visitOver', params: { hours: 24 } }));
    const res = await app.inject('/refuse');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      success: false,
      data: null,
      message: 'This visit is over.',
      error: ErrorCode.SLOT_NOT_AVAILABLE,
      reason: { rule: 'visitOver', params: { hours: 24 } },
    });
    expect(errorEnvelope.safeParse(res.json()).success).toBe(true);
    await app.close();
  });

  it('without a reason answers as before, and the positional constructor still sends Retry-After', async () => {
    const app = await appThrowing(new AppError(429, ErrorCode.RATE_LIMITED, 'Too many tries.', 30));
    const res = await app.inject('/refuse');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json()).toEqual({ success: false, data: null, message: 'Too many tries.', error: ErrorCode.RATE_LIMITED });
    await app.close();
  });
});
