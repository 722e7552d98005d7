// Where toasts show while a dialog is open: inside it, above its buttons, taking room from its scrolling body, so a
// toast never covers the dialog's actions or a field in error (issue 24). Without an open dialog they float.

type Listener = () => void;

const docks: HTMLElement[] = [];
const listeners = new Set<Listener>();
const notify = () => listeners.forEach((listener) => listener());

export const toastDock = {
  /** An open dialog offers its dock; the last one offered (the top dialog) is used. Returns the withdrawal. */
  offer(element: HTMLElement): () => void {
    docks.push(element);
    notify();
    return () => {
      const at = docks.lastIndexOf(element);
      if (at >= 0) docks.splice(at, 1);
      notify();
    };
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** The top dialog's dock, or null when no dialog is open. */
  current: (): HTMLElement | null => docks[docks.length - 1] ?? null,
};
