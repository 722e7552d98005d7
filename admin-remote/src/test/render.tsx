// Renders staff screens as the shell does: one store, the theme, toasts and a router (in memory here).
import type { PropsWithChildren, ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { renderWithProviders } from 'shared-api/test-utils';
import { AppThemeProvider, ToastProvider } from 'shared-ui';
import AdminRoutes from '../routes';

type RenderOptions = { route?: string };

/** Shows the current path so tests can assert where the app went. */
function LocationProbe() {
  const location = useLocation();
  return (
    <span data-testid="location" hidden>
      {location.pathname}
    </span>
  );
}

export function renderAdmin(ui: ReactElement, { route = '/' }: RenderOptions = {}) {
  const Wrapper = ({ children }: PropsWithChildren) => (
    <AppThemeProvider>
      <ToastProvider>
        <MemoryRouter initialEntries={[route]}>
          {children}
          <LocationProbe />
        </MemoryRouter>
      </ToastProvider>
    </AppThemeProvider>
  );
  return renderWithProviders(ui, { wrapper: Wrapper });
}

/** The whole staff route tree at `route`, with a stand-in for the shell's public page at '/'. */
export function renderAdminApp(route: string) {
  return renderAdmin(
    <Routes>
      <Route path="/" element={<h1>Public timetable</h1>} />
      <Route path="/*" element={<AdminRoutes />} />
    </Routes>,
    { route },
  );
}

export const currentPath = (container: HTMLElement = document.body): string =>
  container.querySelector('[data-testid="location"]')?.textContent ?? '';
