/** How long a new page may take to show its heading (its chunk and data loading) before focus is left where it is. */
export const HEADING_WAIT_MS = 10_000;

/**
 * After a page change: focus the new page's main heading (the first `h1` in `<main>`), made focusable with
 * tabIndex=-1, so a screen reader reads the new page and Tab continues from it. A page still loading is waited for;
 * focus the visitor or the page moved meanwhile is left alone. Returns a stop (the next page change).
 */
export function focusMainHeading(waitMs = HEADING_WAIT_MS): () => void {
  const focusedBefore = document.activeElement;
  // On the body once the old page went, or still on what was clicked outside the page (the header's links). Focus in
  // the page or in a dialog was put there by the visitor or by the page itself.
  const untouched = (focused: Element | null) =>
    !focused ||
    focused === document.body ||
    (focused === focusedBefore && !focused.closest('main') && !focused.closest('[role="dialog"], [role="alertdialog"]'));
  const tryFocus = (): boolean => {
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!heading) return false;
    if (untouched(document.activeElement)) {
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      heading.focus();
    }
    return true;
  };
  if (tryFocus()) return () => undefined;
  const main = document.querySelector('main');
  if (!main) return () => undefined;
  const observer = new MutationObserver(() => {
    if (tryFocus()) stop();
  });
  const timer = setTimeout(() => stop(), waitMs);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
  };
  observer.observe(main, { childList: true, subtree: true });
  return stop;
}
