import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { ErrorCode, SlotListError } from 'shared-api/contract';
import { userForToken } from './sessions';
import { AppError } from '../base/errors';

export type StaffUser = { id: number; email: string; username: string | null };

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: 401 unless the request carries a live staff bearer token. */
    requireStaff: (request: FastifyRequest) => Promise<void>;
    /** The staff user behind the bearer token, or null (for routes open to both). */
    optionalStaff: (request: FastifyRequest) => Promise<StaffUser | null>;
  }
  interface FastifyRequest {
    staff: StaffUser | null;
  }
}

export const bearerToken = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
};

export const staffAuthPlugin = fp(
  async (app) => {
    app.decorateRequest('staff', null);
    const optionalStaff = async (request: FastifyRequest) => {
      const token = bearerToken(request);
      request.staff = token ? await userForToken(app.db, token) : null;
      return request.staff;
    };
    app.decorate('optionalStaff', optionalStaff);
    app.decorate('requireStaff', async (request: FastifyRequest) => {
      if (!(await optionalStaff(request))) throw new AppError(401, ErrorCode.UNAUTHORIZED, SlotListError.unauthorized);
    });
  },
  { name: 'staff-auth', dependencies: ['database'] },
);
