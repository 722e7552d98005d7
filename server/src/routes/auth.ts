import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { ErrorCode, envelope, loginBodySchema, loginResultSchema, registerBodySchema, userSchema } from 'shared-api/contract';
import { checkCredentials, createUser, markLogin } from '../auth/accounts';
import { admitLoginAttempt, countAddressAttempt, loginFailed, loginSucceeded } from '../auth/login-limits';
import { PASSWORD_COST } from '../auth/passwords';
import { createSession, revokeSession } from '../auth/sessions';
import { recordAudit } from '../audit/record';
import { bearerToken } from '../plugins/staff-auth';
import { AppError, ok } from '../errors';
import { bearerSecurity, errorResponses } from './common';

export const LoginMessage = {
  invalid: 'Invalid email or password.',
  tooMany: 'Too many login attempts. Please wait a minute and try again.',
  tooManyFailures: 'Too many failed logins for this account. Please wait 15 minutes and try again.',
  accountExists: 'An account with this email already exists.',
} as const;

const refuse = (reply: FastifyReply, retryAfterSeconds: number, message: string) => {
  reply.header('retry-after', retryAfterSeconds);
  return new AppError(429, ErrorCode.RATE_LIMITED, message);
};

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const passwordCost = app.config.passwordCost ?? PASSWORD_COST;

  app.post(
    '/auth/login',
    {
      // Per address over all accounts, counted before the body is read, so any flood of requests is limited.
      onRequest: async (request, reply) => {
        const wait = await countAddressAttempt(app.db, request.ip, app.config.loginRateLimitPerMinute);
        if (wait) throw refuse(reply, wait, LoginMessage.tooMany);
      },
      schema: {
        tags: ['auth'],
        summary: 'Staff login: a bearer token (idle 8 h, absolute 24 h)',
        body: loginBodySchema,
        response: { 200: envelope(loginResultSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const wait = await admitLoginAttempt(app.db, email, request.ip);
      if (wait) throw refuse(reply, wait, LoginMessage.tooManyFailures);
      const user = await checkCredentials(app.db, email, password, passwordCost);
      if (!user) {
        await loginFailed(app.db, email);
        await recordAudit(app.db, { actor: email.toLowerCase(), action: 'login_failed', ip: request.ip });
        throw new AppError(401, ErrorCode.UNAUTHORIZED, LoginMessage.invalid);
      }
      await loginSucceeded(app.db, email, request.ip);
      const session = await app.db.transaction(async (tx) => {
        const created = await createSession(tx, user.id);
        await recordAudit(tx, { actor: user.email, actorUserId: user.id, action: 'login', ip: request.ip });
        return created;
      });
      await markLogin(app.db, user.id);
      request.log.info({ userId: user.id }, 'staff login');
      return ok({ token: session.token, expiresAt: session.expiresAt.toISOString() }, 'Login successful');
    },
  );

  app.post(
    '/auth/logout',
    {
      onRequest: app.requireStaff,
      schema: { tags: ['auth'], summary: 'Revoke the bearer token', security: bearerSecurity, response: { 200: envelope(z.null()), ...errorResponses } },
    },
    async (request) => {
      const staff = request.staff!;
      await app.db.transaction(async (tx) => {
        await revokeSession(tx, bearerToken(request)!);
        await recordAudit(tx, { actor: staff.email, actorUserId: staff.id, action: 'logout', ip: request.ip });
      });
      return ok(null, 'Logged out');
    },
  );

  app.get(
    '/user',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['auth'],
        summary: 'The current staff user (read at data.data.user)',
        security: bearerSecurity,
        response: { 200: envelope(z.object({ data: z.object({ user: userSchema }) })), ...errorResponses },
      },
    },
    async (request) => ok({ data: { user: request.staff! } }, 'Current user'),
  );

  app.post(
    '/auth/register',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['auth'],
        summary: 'Create another staff account (staff token required)',
        security: bearerSecurity,
        body: registerBodySchema,
        response: { 201: envelope(z.object({ user: userSchema })), ...errorResponses },
      },
    },
    async (request, reply) => {
      const staff = request.staff!;
      const user = await app.db.transaction(async (tx) => {
        const added = await createUser(tx, request.body, passwordCost);
        if (added) await recordAudit(tx, { actor: staff.email, actorUserId: staff.id, action: 'account_added', target: added.email, ip: request.ip });
        return added;
      });
      if (!user) throw new AppError(409, ErrorCode.ACCOUNT_EXISTS, LoginMessage.accountExists);
      request.log.info({ by: request.staff!.id, userId: user.id }, 'staff account created');
      reply.code(201);
      return ok({ user }, 'Account created');
    },
  );
};
