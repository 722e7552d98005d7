import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorCode, envelope, loginBodySchema, loginResultSchema, registerBodySchema, userSchema } from 'shared-api/contract';
import { insertUser, loginAccount, markLogin, passwordMatches } from './accounts';
import { commonPasswordRefused, isCommonPassword } from './common-passwords';
import { admitLoginAttempt, countAddressAttempt, FAILURE_WINDOW_SECONDS, loginFailed, loginSucceeded } from './login-limits';
import { clientGone } from './plugin';
import { createSession, revokeSession } from './sessions';
import { recordAudit } from '../audit';
import { bearerToken } from './staff-auth';
import { AppError, ok, tooManyRequests } from '../base/errors';
import { bearerSecurity, errorResponses, publicRoute } from '../base/routes';

export const LoginMessage = {
  invalid: 'Invalid email or password.',
  tooMany: 'Too many login attempts. Please wait a minute and try again.',
  tooManyFailures: `Too many failed logins for this account. Please wait ${FAILURE_WINDOW_SECONDS / 60} minutes and try again.`,
  accountExists: 'An account with this email already exists.',
} as const;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login',
    {
      // Per address over all accounts, counted before the body is read, so any flood of requests is limited.
      onRequest: async (request) => {
        const wait = await countAddressAttempt(app.db, request.ip, app.config.loginRateLimitPerMinute);
        if (wait) throw tooManyRequests(LoginMessage.tooMany, wait);
      },
      schema: {
        tags: ['auth'],
        operationId: 'login',
        security: publicRoute,
        summary: 'Staff login: a bearer token (idle 8 h, absolute 24 h), and a known-device cookie for this browser',
        body: loginBodySchema,
        response: { 200: envelope(loginResultSchema), ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const signal = clientGone(reply);
      const account = await loginAccount(app.db, email);
      const devices = await app.passwords.devices();
      const knownDevice = !!account && devices.recognises(request.headers.cookie, account.id);
      const wait = await admitLoginAttempt(app.db, email, request.ip, { knownDevice, signal });
      if (wait) throw tooManyRequests(LoginMessage.tooManyFailures, wait);
      // Each account takes its turn in the process's password queue; no account (or a disabled one) costs no hash.
      const lane = email.toLowerCase();
      const valid = account
        ? await app.passwords.work.run(lane, () => passwordMatches(app.db, account, password, app.passwords.cost), { signal, priority: knownDevice })
        : await app.passwords.work.imitate(lane, { signal }).then(() => false);
      if (!account || !valid) {
        await loginFailed(app.db, email);
        await recordAudit(app.db, { actor: email.toLowerCase(), action: 'login_failed', ip: request.ip });
        throw new AppError(401, ErrorCode.UNAUTHORIZED, LoginMessage.invalid);
      }
      const user = { id: account.id, email: account.email };
      await loginSucceeded(app.db, email, request.ip);
      const session = await app.db.transaction(async (tx) => {
        const created = await createSession(tx, user.id);
        await recordAudit(tx, { actor: user.email, actorUserId: user.id, action: 'login', ip: request.ip });
        return created;
      });
      await markLogin(app.db, user.id);
      reply.header('set-cookie', devices.setCookie(user.id, app.config.payments.apiPublicUrl.startsWith('https:')));
      request.log.info({ userId: user.id }, 'staff login');
      return ok({ token: session.token, expiresAt: session.expiresAt.toISOString() }, 'Login successful');
    },
  );

  app.post(
    '/auth/logout',
    {
      onRequest: app.requireStaff,
      schema: { tags: ['auth'], operationId: 'logout', summary: 'Revoke the bearer token', security: bearerSecurity, response: { 200: envelope(z.null()), ...errorResponses(401) } },
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
        operationId: 'getCurrentUser',
        summary: 'The current staff user (read at data.data.user)',
        security: bearerSecurity,
        response: { 200: envelope(z.object({ data: z.object({ user: userSchema }) })), ...errorResponses(401) },
      },
    },
    async (request) => {
      const { id, email, username, role } = request.staff!;
      return ok({ data: { user: { id, email, username, role } } }, 'Current user');
    },
  );

  app.post(
    '/auth/register',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags: ['auth'],
        operationId: 'registerStaff',
        summary: 'Add a colleague, as staff unless `role` is admin (an admin with a recent second factor; not a common password)',
        security: bearerSecurity,
        body: registerBodySchema,
        response: { 201: envelope(z.object({ user: userSchema })), ...errorResponses(401, 403, 409) },
      },
    },
    async (request, reply) => {
      const staff = request.staff!;
      if (isCommonPassword(request.body.password)) throw commonPasswordRefused();
      const passwordHash = await app.passwords.hash(request.body.email.toLowerCase(), request.body.password, { signal: clientGone(reply) });
      const user = await app.db.transaction(async (tx) => {
        const added = await insertUser(tx, { ...request.body, passwordHash });
        if (added) await recordAudit(tx, { actor: staff.email, actorUserId: staff.id, action: 'account_added', target: added.email, detail: { role: added.role }, ip: request.ip });
        return added;
      });
      if (!user) throw new AppError(409, ErrorCode.ACCOUNT_EXISTS, LoginMessage.accountExists);
      request.log.info({ by: request.staff!.id, userId: user.id }, 'staff account created');
      reply.code(201);
      return ok({ user }, 'Account created');
    },
  );
};
