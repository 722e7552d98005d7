import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccountMessage,
  ErrorCode,
  envelope,
  passwordResetConfirmBodySchema,
  passwordResetRequestBodySchema,
  staffAccountListSchema,
  staffAccountParamsSchema,
} from 'shared-api/contract';
import { disableAccount, listAccounts } from '../auth/accounts';
import { confirmPasswordReset, countResetAddress, requestPasswordReset } from '../auth/password-reset';
import { PASSWORD_COST } from '../auth/passwords';
import { revokeAllSessions } from '../auth/sessions';
import { recordAudit } from '../audit/record';
import { AppError, ok } from '../errors';
import { bearerSecurity, errorResponses } from './common';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Staff accounts (issue 15): log out everywhere, forgot password, and the colleagues list with disable. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const passwordCost = app.config.passwordCost ?? PASSWORD_COST;

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(
    '/auth/logout-all',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['auth'],
        summary: 'Revoke every session of the signed-in account (this one too)',
        security: bearerSecurity,
        response: { 200: envelope(z.object({ revoked: z.number().int() })), ...errorResponses },
      },
    },
    async (request) => {
      const staff = request.staff!;
      const revoked = await app.db.transaction(async (tx) => {
        const n = await revokeAllSessions(tx, staff.id);
        await recordAudit(tx, { actor: staff.email, actorUserId: staff.id, action: 'logout_all', detail: { sessionsEnded: n }, ip: request.ip });
        return n;
      });
      request.log.info({ userId: staff.id, revoked }, 'staff logged out everywhere');
      return ok({ revoked }, AccountMessage.loggedOutEverywhere);
    },
  );

  app.post(
    '/auth/password-reset/request',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a single-use, 30-minute reset link to a staff account; the same answer whether or not it exists',
        body: passwordResetRequestBodySchema,
        response: { 200: envelope(z.null()), ...errorResponses },
      },
    },
    async (request, reply) => {
      // Per client address (over all addresses asked for), counted once the body is valid; then per account, silently.
      const wait = await countResetAddress(app.db, request.ip);
      if (wait) {
        reply.header('retry-after', wait);
        throw new AppError(429, ErrorCode.RATE_LIMITED, AccountMessage.resetTooMany);
      }
      const { publicSiteUrl, mailFrom } = app.config.payments;
      const queued = await requestPasswordReset(app.db, request.body.email, { publicSiteUrl, mailFrom }, request.ip);
      if (queued) {
        request.log.info({ userId: queued.userId }, 'staff password reset requested');
        app.mailWorker.wake();
      }
      return ok(null, AccountMessage.resetRequested);
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token; every session of the account ends',
        body: passwordResetConfirmBodySchema,
        response: { 200: envelope(z.null()), ...errorResponses },
      },
    },
    async (request) => {
      const done = await confirmPasswordReset(app.db, request.body.token, request.body.password, passwordCost, request.ip);
      if (!done) throw new AppError(400, ErrorCode.VALIDATION_ERROR, AccountMessage.resetInvalid);
      request.log.info({ userId: done.userId }, 'staff password reset');
      return ok(null, AccountMessage.resetDone);
    },
  );

  app.get(
    '/staff/accounts',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Every staff account (disabled ones too), oldest first',
        security: bearerSecurity,
        response: { 200: envelope(staffAccountListSchema), ...errorResponses },
      },
    },
    async () => {
      const rows = await listAccounts(app.db);
      const accounts = rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), lastLoginAt: iso(r.lastLoginAt), disabledAt: iso(r.disabledAt) }));
      return ok({ accounts }, `${accounts.length} account(s)`);
    },
  );

  app.post(
    '/staff/accounts/:id/disable',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Disable a staff account: its sessions end at once and it cannot log in; the last enabled one is refused',
        security: bearerSecurity,
        params: staffAccountParamsSchema,
        response: { 200: envelope(z.null()), ...errorResponses },
      },
    },
    async (request) => {
      const staff = request.staff!;
      const result = await disableAccount(app.db, request.params.id, async (tx, email) => {
        await recordAudit(tx, { actor: staff.email, actorUserId: staff.id, action: 'account_disabled', target: email, ip: request.ip });
      });
      if (result === 'not_found') throw new AppError(404, ErrorCode.NOT_FOUND, AccountMessage.accountNotFound);
      if (result === 'last_active') throw new AppError(409, ErrorCode.FORBIDDEN, AccountMessage.lastActiveAccount);
      if (result === 'disabled') request.log.info({ by: staff.id, userId: request.params.id }, 'staff account disabled');
      return ok(null, AccountMessage.accountDisabled);
    },
  );
};
