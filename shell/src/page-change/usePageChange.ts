import { useEffect, useRef } from 'react';
import type { Locale } from 'shared-api';

/**
 * The document's title and focus follow client-side page changes and language switches. The first load's title is
 * the server's (shell/server), and focus stays where the browser puts it: the chunk that does this loads at the
 * first change.
 */
export function usePageChange(pathname: string, locale: Locale): void {
  const shown = useRef({ pathname, locale });
  useEffect(() => {
    const newPage = pathname !== shown.current.pathname;
    if (!newPage && locale === shown.current.locale) return;
    shown.current = { pathname, locale };
    void import('./applyPageChange').then(({ applyPageChange }) => applyPageChange(pathname, locale, newPage));
  }, [pathname, locale]);
}
