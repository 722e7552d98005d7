// Leaving the app (to the gateway), reloading and printing go through here, so tests can watch them without a real navigation.
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
  reload(): void {
    window.location.reload();
  },
  print(): void {
    window.print();
  },
};
