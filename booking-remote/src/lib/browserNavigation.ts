// Leaving the app (to the gateway), coming back to it, reloading and printing go through here, so tests can watch them without a real navigation.
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
  /** Calls `listener` when the browser shows this page again from its back-forward cache (e.g. Back from the gateway); returns the unsubscribe. */
  onReturn(listener: () => void): () => void {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) listener();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  },
  reload(): void {
    window.location.reload();
  },
  print(): void {
    window.print();
  },
};
