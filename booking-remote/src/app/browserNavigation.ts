// Leaving the app (to the gateway) and reloading go through here, so tests can watch them without a real navigation.
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
  reload(): void {
    window.location.reload();
  },
};
