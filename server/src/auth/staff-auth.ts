import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { AccountErrorCode, AccountMessage, ErrorCode, SlotListError } from 'shared-api/contract';
import { userForToken, type SessionUser } from './sessions';
import { steppedUpUntil } from './second-factor';
import { AppError } from '../base/errors';

export type StaffUser = SessionUser;

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: 401 unless the request carries a live staff bearer token. */
    requireStaff: (request: FastifyRequest) => Promise<void>;
    /** onRequest hook: requireStaff, then 403 ADMIN_ONLY unless the account is an admin (reads of the admin pages). */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    /**
     * onRequest hook: requireAdmin, then 403 STEP_UP_REQUIRED unless this session gave the second factor within
     * STEP_UP_HOURS: every admin change, and every look-up or download of a person's data.
     */
    requireAdminStepUp: (request: FastifyRequest) => Promise<void>;
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

/** The 403 an admin route answers a session without a recent second factor; `data.enrolled` says which form to show. */
export const stepUpRequired = (enrolled: boolean) => {
  const error = new AppError(403, AccountErrorCode.STEP_UP_REQUIRED, AccountMessage.stepUpRequired);
  error.data = { enrolled };
  return error;
};

export const staffAuthPlugin = fp(
  async (app) => {
    app.decorateRequest('staff', null);
    const optionalStaff = async (request: FastifyRequest) => {
      const token = bearerToken(request);
      request.staff = token ? await userForToken(app.db, token) : null;
      return request.staff;
    };
    const requireStaff = async (request: FastifyRequest) => {
      if (!(await optionalStaff(request))) throw new AppError(401, ErrorCode.UNAUTHORIZED, SlotListError.unauthorized);
    };
    const requireAdmin = async (request: FastifyRequest) => {
      await requireStaff(request);
      if (request.staff!.role !== 'admin') throw new AppError(403, AccountErrorCode.ADMIN_ONLY, AccountMessage.adminOnly);
    };
    app.decorate('optionalStaff', optionalStaff);
    app.decorate('requireStaff', requireStaff);
    app.decorate('requireAdmin', requireAdmin);
    app.decorate('requireAdminStepUp', async (request: FastifyRequest) => {
      await requireAdmin(request);
      const staff = request.staff!;
      if (!steppedUpUntil(staff.steppedUpAt)) throw stepUpRequired(staff.secondFactor);
    });
  },
  { name: 'staff-auth', dependencies: ['database'] },
);
