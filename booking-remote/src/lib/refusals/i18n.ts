import { ErrorCode } from 'shared-api';
import { NOTICE_OUTDATED } from 'shared-api/privacy';
import { defineCatalog, useCatalog } from 'shared-ui';
import { refusalId, type Failure } from '../apiError';
import { visitorCatalog, visitorRuleOf } from '../visitor-fields/i18n';
import en from './locales/en.json';

/** The refusals any public call may get, said alike on every page (the booking dialog, the waitlist pages). */
export const refusalCatalog = defineCatalog('booking.refusals', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});

const BY_CODE: Partial<Record<string, keyof typeof en>> = {
  [NOTICE_OUTDATED]: 'noticeOutdated',
  [ErrorCode.RATE_LIMITED]: 'rateLimited',
  [ErrorCode.DATABASE_UNAVAILABLE]: 'databaseUnavailable',
  [ErrorCode.INTERNAL]: 'serverError',
};

/** Says a failure in the page's language when any page would say it alike; undefined for a feature's own refusals. */
export type CommonRefusals = (failure: Failure) => string | undefined;

/** A form rule the server named (the visitor fields' words), or a refusal every page says alike. */
export function useCommonRefusals(): CommonRefusals {
  const refusal = useCatalog(refusalCatalog).t;
  const visitor = useCatalog(visitorCatalog).t;
  return (failure) => {
    const rule = visitorRuleOf(failure);
    if (rule) return visitor(rule);
    const id = refusalId(failure, BY_CODE);
    return id && refusal(id);
  };
}
