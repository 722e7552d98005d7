// The audit trail for staff (issue 15): GET /staff/audit, read only, injected into the one shared API.
import { api, type Envelope } from 'shared-api';
import { auditPageSchema, type AuditAction, type AuditPage } from 'shared-api/audit';

export type AuditFilters = {
  /** Part of a person's email (or 'parent', 'system'), any case. */
  actor?: string;
  action?: AuditAction;
  /** GMT+8 days, YYYY-MM-DD, both inclusive. */
  from?: string;
  to?: string;
};
export type AuditPageArgs = AuditFilters & { page: number; limit: number };

/** The query string for the server: empty filters are left out. */
export function auditSearch({ actor, action, from, to, page, limit }: AuditPageArgs): string {
  const params = new URLSearchParams();
  if (actor?.trim()) params.set('actor', actor.trim());
  if (action) params.set('action', action);
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  params.set('page', String(page));
  params.set('limit', String(limit));
  return params.toString();
}

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    auditPage: build.query<AuditPage, AuditPageArgs>({
      query: (args) => `/staff/audit?${auditSearch(args)}`,
      transformResponse: (response: Envelope<unknown>) => auditPageSchema.parse(response.data),
    }),
  }),
});

export const { useAuditPageQuery, useLazyAuditPageQuery } = auditApi;
