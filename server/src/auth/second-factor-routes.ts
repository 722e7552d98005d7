import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  AccountMessage,
  ErrorCode,
  envelope,
  recoveryCodesSchema,
  SECOND_FACTOR_GUESSES,
  SECOND_FACTOR_WINDOW_MINUTES,
  secondFactorCodeBodySchema,
  secondFactorEnrolmentSchema,
  secondFactorStatusSchema,
  staffAccountParamsSchema,
  steppedUpSchema,
} from 'shared-api/contract';
import { auditBy, recordAudit } from '../audit';
import { AppError, ok, tooManyRequests } from '../base/errors';
import { bearerSecurity, errorResponses } from '../base/routes';
import { hitCounter, resetCounter } from '../limits';
import { confirmEnrolment, resetSecondFactor, startEnrolment, steppedUpUntil, verifySecondFactor } from './second-factor';

const tags = ['auth'];
const codeWrong = () => new AppError(400, ErrorCode.VALIDATION_ERROR, AccountMessage.codeWrong).withReason({ rule: 'codeWrong' });
const guessKey = (userId: number) => `second-factor:${userId}`;

/**
 * The admin's second factor (issue 35): TOTP enrolled on first use with a QR code, 10 recovery codes, and the step-up
 * that admin routes ask for (`app.requireAdminStepUp`). Every code, right or wrong, counts toward the account's
 * SECOND_FACTOR_GUESSES in SECOND_FACTOR_WINDOW_MINUTES (counted before the check, so parallel guesses count too);
 * a right one clears the count.
 */
export const secondFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const countGuess = async (request: FastifyRequest) => {
    const hit = await hitCounter(app.db, guessKey(request.staff!.id), SECOND_FACTOR_WINDOW_MINUTES * 60);
    if (hit.hits > SECOND_FACTOR_GUESSES) throw tooManyRequests(AccountMessage.codeTooMany, hit.retryAfterSeconds);
  };

  app.get(
    '/auth/second-factor',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        operationId: 'getSecondFactor',
        summary: "Whether the admin has set up the second factor, and until when this session's step-up holds",
        security: bearerSecurity,
        response: { 200: envelope(secondFactorStatusSchema), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const staff = request.staff!;
      const until = steppedUpUntil(staff.steppedUpAt);
      return ok({ enrolled: staff.secondFactor, steppedUpUntil: until ? until.toISOString() : null }, 'Second factor');
    },
  );

  app.post(
    '/auth/second-factor/enrol',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        operationId: 'startSecondFactorEnrolment',
        summary: 'Start setting up the second factor: a new secret and its QR code (409 once set up)',
        security: bearerSecurity,
        response: { 200: envelope(secondFactorEnrolmentSchema), ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => {
      const enrolment = await startEnrolment(app.db, request.staff!);
      if (!enrolment) throw new AppError(409, ErrorCode.VALIDATION_ERROR, AccountMessage.alreadyEnrolled);
      return ok(enrolment, 'Scan the QR code');
    },
  );

  app.post(
    '/auth/second-factor/enrol/confirm',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        operationId: 'confirmSecondFactorEnrolment',
        summary: "Finish the set-up with the app's first code: the 10 recovery codes (shown this once) and a step-up",
        security: bearerSecurity,
        body: secondFactorCodeBodySchema,
        response: { 200: envelope(recoveryCodesSchema), ...errorResponses(401, 403, 409, 429) },
      },
    },
    async (request) => {
      const staff = request.staff!;
      await countGuess(request);
      const result = await confirmEnrolment(app.db, staff, request.body.code);
      if (result === 'not_enrolling') throw new AppError(409, ErrorCode.VALIDATION_ERROR, AccountMessage.notEnrolling);
      if (!result) throw codeWrong();
      await resetCounter(app.db, guessKey(staff.id));
      await recordAudit(app.db, { ...auditBy(staff, request.ip), action: 'second_factor_enrolled', target: staff.email });
      return ok({ recoveryCodes: result.recoveryCodes, steppedUpUntil: result.steppedUpUntil.toISOString() }, 'Second factor set up');
    },
  );

  app.post(
    '/auth/second-factor/verify',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        operationId: 'verifySecondFactor',
        summary: 'Give the second factor (a code from the app, or a recovery code, each accepted once): admin actions for 12 hours',
        security: bearerSecurity,
        body: secondFactorCodeBodySchema,
        response: { 200: envelope(steppedUpSchema), ...errorResponses(401, 403, 409, 429) },
      },
    },
    async (request) => {
      const staff = request.staff!;
      await countGuess(request);
      const result = await verifySecondFactor(app.db, staff, request.body.code);
      if (result.outcome === 'not_enrolled') throw new AppError(409, ErrorCode.VALIDATION_ERROR, AccountMessage.notEnrolling);
      if (result.outcome !== 'verified') {
        await recordAudit(app.db, { ...auditBy(staff, request.ip), action: 'second_factor_failed', target: staff.email });
        throw codeWrong();
      }
      await resetCounter(app.db, guessKey(staff.id));
      const action = result.by === 'recovery' ? 'recovery_code_used' : 'second_factor_verified';
      await recordAudit(app.db, { ...auditBy(staff, request.ip), action, target: staff.email, detail: result.by === 'recovery' ? { left: result.recoveryCodesLeft } : null });
      return ok({ steppedUpUntil: result.steppedUpUntil.toISOString(), recoveryCodesLeft: result.recoveryCodesLeft }, 'Second factor given');
    },
  );

  app.post(
    '/staff/accounts/:id/second-factor/reset',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags: ['staff'],
        operationId: 'resetColleagueSecondFactor',
        summary: "Reset a colleague's second factor (a lost phone): they set it up again at their next admin action",
        security: bearerSecurity,
        params: staffAccountParamsSchema,
        response: { 200: envelope(z.null()), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const staff = request.staff!;
      if (request.params.id === staff.id) throw new AppError(403, ErrorCode.FORBIDDEN, AccountMessage.ownSecondFactor);
      const reset = await app.db.transaction(async (tx) => {
        const email = await resetSecondFactor(tx, request.params.id);
        if (email) await recordAudit(tx, { ...auditBy(staff, request.ip), action: 'second_factor_reset', target: email });
        return email;
      });
      if (!reset) throw new AppError(404, ErrorCode.NOT_FOUND, AccountMessage.noSecondFactor);
      return ok(null, 'Second factor reset');
    },
  );
};
