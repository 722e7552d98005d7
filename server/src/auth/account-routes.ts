import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccountMessage,
  ErrorCode,
  envelope,
  passwordResetCheckBodySchema,
  passwordResetConfirmBodySchema,
  passwordResetRequestBodySchema,
  staffAccountListSchema,
  staffAccountParamsSchema,
  staffRoleBodySchema,
} from 'shared-api/contract';
import { disableAccount, listAccounts, setRole } from './accounts';
import { commonPasswordRefused, isCommonPassword } from './common-passwords';
import { confirmPasswordReset, countResetAddress, isResetTokenUsable, requestPasswordReset, RESET_GUESS_LIMIT } from './password-reset';
import { clientGone } from './plugin';
import { revokeAllSessions } from './sessions';
import { recordAudit } from '../audit';
import { AppError, ok, tooManyRequests } from '../base/errors';
import { refuseUnknownToken } from '../limits';
import { bearerSecurity, errorResponses, publicRoute } from '../base/routes';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Staff accounts (issue 15): log out everywhere, forgot password, and the colleagues list with disable. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/logout-all',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['auth'],
        operationId: 'logoutEverywhere',
        summary: 'Revoke every session of the signed-in account (this one too)',
        security: bearerSecurity,
        response: { 200: envelope(z.object({ revoked: z.number().int() })), ...errorResponses(401) },
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
        operationId: 'requestPasswordReset',
        security: publicRoute,
        summary: 'Mail a single-use, 30-minute reset link to a staff account; the same answer whether or not it exists',
        body: passwordResetRequestBodySchema,
        response: { 200: envelope(z.null()), ...errorResponses(429) },
      },
    },
    async (request) => {
      // Per client address (over all addresses asked for), counted once the body is valid; then per account, silently.
      const wait = await countResetAddress(app.db, request.ip);
      if (wait) throw tooManyRequests(AccountMessage.resetTooMany, wait);
      const { publicSiteUrl, mailFrom } = app.config.payments;
      const queued = await requestPasswordReset(app.db, request.body.email, { publicSiteUrl, mailFrom }, request.ip);
      if (queued) {
        request.log.info({ userId: queued.userId }, 'staff password reset requested');
        app.mailQueue.wake();
      }
      return ok(null, AccountMessage.resetRequested);
    },
  );

  app.post(
    '/auth/password-reset/check',
    {
      schema: {
        tags: ['auth'],
        operationId: 'checkPasswordReset',
        security: publicRoute,
        summary: 'Whether a reset link still works (asked when its page opens, before the form); says nothing about the account',
        body: passwordResetCheckBodySchema,
        response: { 200: envelope(z.object({ usable: z.literal(true) })), ...errorResponses(429) },
      },
    },
    async (request) => {
      if (await isResetTokenUsable(app.db, request.body.token)) return ok({ usable: true as const }, 'This reset link works');
      // Only links that do not work are counted (with confirm's), so a working link answers from any address.
      return refuseUnknownToken(app.db, RESET_GUESS_LIMIT, request.ip, () => new AppError(400, ErrorCode.VALIDATION_ERROR, AccountMessage.resetInvalid));
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        operationId: 'confirmPasswordReset',
        security: publicRoute,
        summary: 'Set a new password with a reset token; every session of the account ends (400 for a link that does not work, 429 after too many)',
        body: passwordResetConfirmBodySchema,
        response: { 200: envelope(z.null()), ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      if (isCommonPassword(request.body.password)) throw commonPasswordRefused();
      const signal = clientGone(reply);
      const hash = (password: string, email: string) => app.passwords.hash(email, password, { signal });
      const done = await confirmPasswordReset(app.db, request.body.token, request.body.password, hash, request.ip);
      if (!done) return refuseUnknownToken(app.db, RESET_GUESS_LIMIT, request.ip, () => new AppError(400, ErrorCode.VALIDATION_ERROR, AccountMessage.resetInvalid));
      request.log.info({ userId: done.userId }, 'staff password reset');
      return ok(null, AccountMessage.resetDone);
    },
  );

  app.get(
    '/staff/accounts',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['staff'],
        operationId: 'listStaffAccounts',
        summary: 'Every staff account (disabled ones too), oldest first, with its role and whether it set up a second factor (admins)',
        security: bearerSecurity,
        response: { 200: envelope(staffAccountListSchema), ...errorResponses(401, 403) },
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
      onRequest: app.requireAdminStepUp,
      schema: {
        tags: ['staff'],
        operationId: 'disableStaffAccount',
        summary: 'Disable a staff account: its sessions end at once and it cannot log in; the last enabled one, or admin, is refused (admins)',
        security: bearerSecurity,
        params: staffAccountParamsSchema,
        response: { 200: envelope(z.null()), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const staff = request.staff!;
      const result = await disableAccount(app.db, request.params.id, async (tx, email) => {
        await recordAudit(tx, { actor: staff.email, actorUserId: staff.id, action: 'account_disabled', target: email, ip: request.ip });
      });
      if (result === 'not_found') throw new AppError(404, ErrorCode.NOT_FOUND, AccountMessage.accountNotFound);
      if (result === 'last_active') throw new AppError(409, ErrorCode.FORBIDDEN, AccountMessage.lastActiveAccount);
      if (result === 'last_admin') throw new AppError(409, ErrorCode.FORBIDDEN, AccountMessage.lastAdmin);
      if (result === 'disabled') request.log.info({ by: staff.id, userId: request.params.id }, 'staff account disabled');
      return ok(null, AccountMessage.accountDisabled);
    },
  );

  app.post(
    '/staff/accounts/:id/role',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags: ['staff'],
        operationId: 'setStaffAccountRole',
        summary: "Make a colleague staff or admin (audited); the last enabled admin cannot be made staff (admins)",
        security: bearerSecurity,
        params: staffAccountParamsSchema,
        body: staffRoleBodySchema,
        response: { 200: envelope(z.null()), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const staff = request.staff!;
      const { role } = request.body;
      const result = await setRole(app.db, request.params.id, role, async (tx, account) => {
        await recordAudit(tx, { actor: staff.email, actorUserId: staff.id, action: 'account_role_changed', target: account.email, detail: { from: account.from, to: role }, ip: request.ip });
      });
      if (result.outcome === 'not_found') throw new AppError(404, ErrorCode.NOT_FOUND, AccountMessage.accountNotFound);
      if (result.outcome === 'last_admin') throw new AppError(409, ErrorCode.FORBIDDEN, AccountMessage.lastAdmin);
      if (result.outcome === 'changed') request.log.info({ by: staff.id, userId: request.params.id, role }, 'staff account role changed');
      return ok(null, AccountMessage.roleChanged);
    },
  );
};
