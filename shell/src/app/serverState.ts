// The store state a server-rendered page was drawn from: the shell's server writes it into the HTML as JSON, the
// shell's bootstrap gives it to the page's store, so the page's first render draws the same page without asking again.

/** The id of the `<script type="application/json">` carrying it. */
export const SERVER_STATE_ID = 'server-state';

/** The state in the page, if it was rendered on the server (the shell's server writes it, as JSON). */
export function serverStateOfPage(): Record<string, unknown> | undefined {
  const element = document.getElementById(SERVER_STATE_ID);
  return element ? (JSON.parse(element.textContent!) as Record<string, unknown>) : undefined;
}
