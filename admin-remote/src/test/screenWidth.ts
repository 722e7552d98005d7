// jsdom has no matchMedia, so the staff screens draw a desk's layout. `onPhone()` draws a phone's until the test ends:
// below the desk's breakpoint, where shared-ui's DataTable shows a card per row.
let onAPhone = false;

export function onPhone(): void {
  onAPhone = true;
  window.matchMedia = ((query: string) => ({
    matches: /max-width/.test(query),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}

afterEach(() => {
  if (onAPhone) delete (window as { matchMedia?: unknown }).matchMedia;
  onAPhone = false;
});
