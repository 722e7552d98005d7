import rateLimit from '@fastify/rate-limit';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorCode, envelope, loginBodySchema, loginResultSchema, registerBodySchema, userSchema } from 'shared-api/contract';
import { checkCredentials, createUser } from '../auth/accounts';
import { AttemptLimiter } from '../auth/attempt-limiter';
import { createSession, revokeSession } from '../auth/sessions';
import { bearerToken } from '../plugins/staff-auth';
import { AppError, ok } from '../errors';
import { bearerSecurity, errorResponses } from './common';

export const LoginMessage = {
  invalid: 'Invalid email or password.',
  tooMany: 'Too many login attempts. Please wait a minute and try again.',
  accountExists: 'An account with this email already exists.',
} as const;

const tooManyAttempts = () => new AppError(429, ErrorCode.RATE_LIMITED, LoginMessage.tooMany);

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // Only the login route is limited: per IP before the body is read, per account once the email is known.
  await app.register(rateLimit, { global: false, errorResponseBuilder: tooManyAttempts });
  const max = app.config.loginRateLimitPerMinute;
  const perAccount = new AttemptLimiter(max, 60_000);

  app.post(
    '/auth/login',
    {
      config: { rateLimit: { max, timeWindow: 60_000 } },
      preHandler: async (request, reply) => {
        const key = request.body.email;
        if (!perAccount.hit(key)) {
          reply.header('retry-after', perAccount.retryAfterSeconds(key));
          throw tooManyAttempts();
        }
      },
      schema: {
        tags: ['auth'],
        summary: 'Staff login: a bearer token (idle 8 h, absolute 24 h)',
        body: loginBodySchema,
        response: { 200: envelope(loginResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const user = await checkCredentials(app.db, request.body.email, request.body.password);
      if (!user) throw new AppError(401, ErrorCode.UNAUTHORIZED, LoginMessage.invalid);
      const session = await createSession(app.db, user.id);
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
      await revokeSession(app.db, bearerToken(request)!);
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
      const user = await createUser(app.db, request.body);
      if (!user) throw new AppError(409, ErrorCode.ACCOUNT_EXISTS, LoginMessage.accountExists);
      request.log.info({ by: request.staff!.id, userId: user.id }, 'staff account created');
      reply.code(201);
      return ok({ user }, 'Account created');
    },
  );
};
