// The timetable's first view rendered on a server (built as dist/booking-remote/server/render.js, a CommonJS module for
// Node that carries its own React): the shell's server loads it from this remote's address at run time, so a release
// of this remote changes the rendered HTML without touching the shell.
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { isLocale, makeStore, type Locale } from 'shared-api';
import { activateLocale, AppThemeProvider } from 'shared-ui';
import { ServerStyleSheet } from 'styled-components';
import { timetableApi } from '../features/timetable';
import { normaliseSlotList, totalPagesOf } from '../lib/slot-list/normaliseSlotList';
import BookingRoutes from '../routes';
import { NO_SCRIPT_BUTTON_STYLE, NoScriptNotice } from './NoScriptNotice';

export type RenderInput = {
  /** The parent's language (the `lang` cookie, or English). */
  lang: string;
  /** The public list's answer as the API gave it (PUBLIC_TIMETABLE_LIST_PATH), the same body the page would fetch. */
  list: unknown;
  /** When the list was read (ms since the epoch): the timetable's clock and its "last updated". */
  now: number;
};

export type RenderOutput = {
  /** The markup of `/`'s page content (inside the shell's <main>). */
  html: string;
  /** The style tags the markup needs (styled-components' server sheet). */
  css: string;
  /** The store's state the markup was drawn from, for the page's store (`makeStore(state)`): the list is not asked again. */
  state: Record<string, unknown>;
};

/** Renders `/` for `lang` from `list`; rejects when the list is not one (the shell then serves its client page). */
export async function render({ lang, list, now }: RenderInput): Promise<RenderOutput> {
  const locale: Locale = isLocale(lang) ? lang : 'en';
  const slots = normaliseSlotList(list);
  if (!slots) throw new Error('the public list is not a slot list');
  // More than one page of bookable slots: the page reads them all itself (a rendered page 1 would leave times out).
  if (totalPagesOf(list) > 1) throw new Error('the public list has more than one page');
  const store = makeStore();
  await store.dispatch(timetableApi.util.upsertQueryData('getPublicSlots', undefined, { slots, fetchedAt: now }));
  // The language is module state: one render at a time sets it and draws (renderToString is synchronous).
  return oneAtATime(async () => {
    await activateLocale(locale);
    const sheet = new ServerStyleSheet();
    try {
      const page = renderToString(
        sheet.collectStyles(
          <Provider store={store}>
            <AppThemeProvider withGlobalStyle={false}>
              <MemoryRouter>
                <BookingRoutes />
              </MemoryRouter>
            </AppThemeProvider>
          </Provider>,
        ),
      );
      const notice = renderToString(
        sheet.collectStyles(
          <AppThemeProvider withGlobalStyle={false}>
            <NoScriptNotice />
          </AppThemeProvider>,
        ),
      );
      const { api } = store.getState();
      return { html: withNotice(page, notice), css: sheet.getStyleTags() + NO_SCRIPT_BUTTON_STYLE, state: { api } };
    } finally {
      sheet.seal();
    }
  });
}

/**
 * The notice under the timetable's heading, above its fees and slot buttons (not in the app's page: with JavaScript
 * the app draws over this markup and a `<noscript>` shows nothing anyway).
 */
function withNotice(page: string, notice: string): string {
  const heading = page.indexOf('</h1>');
  if (heading < 0) return notice + page;
  const at = heading + '</h1>'.length;
  return page.slice(0, at) + notice + page.slice(at);
}

let queue: Promise<unknown> = Promise.resolve();
/** Runs `work` after every earlier one has finished. */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work);
  queue = run.catch(() => undefined);
  return run;
}
