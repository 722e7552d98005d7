import type { PropsWithChildren, ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { renderWithProviders } from 'shared-api/test-utils';
import { AppThemeProvider, ToastProvider } from 'shared-ui';

type Options = {
  /** Initial URL (path, query, state). */
  route?: string | { pathname: string; search?: string; state?: unknown };
  /** Route pattern the element is mounted at, so redirects elsewhere can be observed. */
  path?: string;
};

/** Shows where the app navigated to, for assertions on redirects. */
function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

/** Renders as the shell does: store, theme, toasts and a router above the element. */
export function renderApp(ui: ReactElement, { route = '/', path = '*' }: Options = {}) {
  const Wrapper = ({ children }: PropsWithChildren) => (
    <AppThemeProvider>
      <ToastProvider>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route path={path} element={children} />
            <Route path="*" element={null} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </ToastProvider>
    </AppThemeProvider>
  );
  return renderWithProviders(ui, { wrapper: Wrapper });
}
