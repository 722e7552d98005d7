import { useCallback } from 'react';
import { formatInMY } from 'shared-api';
import { changeTermsText, type ChangeTerms } from 'shared-api/change-terms';
import { useCatalog } from 'shared-ui';
import { contractCatalog } from './contract-catalog';

/**
 * The refund and change terms in the page's language, with the same sentence the mails use (shared-api's
 * change-terms.ts and its catalogue): the booking summary, the success page and the manage page.
 */
export function useTermsText(): (terms: ChangeTerms) => string {
  const { t, locale } = useCatalog(contractCatalog);
  // Dates through the page's shared shared-api, where the chosen language's day and month names are registered.
  return useCallback((terms: ChangeTerms) => changeTermsText(terms, { locale, translate: t, format: formatInMY }), [t, locale]);
}
