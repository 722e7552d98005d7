// `shared-api/app-root`: what every app runs in, for the shell's and the remotes' bootstraps. It composes the store
// with shared-ui's theme, toasts and languages, so it lives here (shared-api may use the design system, never the
// reverse) and outside `shared-api`'s shared entry: it takes the store from 'shared-api', the one copy on the page.
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { configureApi, makeStore } from 'shared-api';
import { AppThemeProvider, startI18n, ToastProvider, type Locale } from 'shared-ui';

/**
 * Renders `app` into #root inside what every app runs in: one new store (from `state` when the page was rendered on a
 * server: its first render draws the same page), the theme, toasts and the router (after `startI18n()`). A
 * server-rendered #root is drawn over, not hydrated: see shell/server/README.md, "Rendering / on the server".
 */
export function renderApp(app: ReactNode, state?: object): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provider store={makeStore(state)}>
        <AppThemeProvider>
          <ToastProvider>
            <BrowserRouter>{app}</BrowserRouter>
          </ToastProvider>
        </AppThemeProvider>
      </Provider>
    </StrictMode>,
  );
}

/** A remote on its own (its team runs it on its own port; `pageLocale` when its pages speak one language): `/config.json` beside the page ({"api": "..."}, written by `npm start`) wins over the build-time API address. */
export async function startStandalone(routes: ReactNode, pageLocale?: Locale): Promise<void> {
  try {
    const response = await fetch('/config.json');
    const config = response.ok ? ((await response.json()) as { api?: unknown }) : {};
    if (typeof config.api === 'string' && config.api) configureApi({ baseUrl: config.api });
  } catch {
    // No config beside the page: the build-time address stands.
  }
  await startI18n(pageLocale);
  renderApp(<main style={{ maxWidth: 1200, margin: '0 auto', padding: 16 }}>{routes}</main>);
}
