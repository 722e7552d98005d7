// Standalone start of the public side (its own team runs it on its own port): own store, router, theme, toasts.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { configureApi, makeStore } from 'shared-api';
import { AppThemeProvider, ToastProvider } from 'shared-ui';
import BookingRoutes from './routes';

/** `/config.json` beside the standalone page ({"api": "..."}, written by `npm start`) wins over the build-time default. */
async function apiBaseUrl(): Promise<string> {
  const fallback = process.env.API_BASE_URL || 'http://localhost:4000';
  try {
    const response = await fetch('/config.json');
    const config = response.ok ? ((await response.json()) as { api?: unknown }) : {};
    return typeof config.api === 'string' && config.api ? config.api : fallback;
  } catch {
    return fallback;
  }
}

async function start() {
  configureApi({ baseUrl: await apiBaseUrl() });
  const store = makeStore();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provider store={store}>
        <AppThemeProvider>
          <ToastProvider>
            <BrowserRouter>
              <main style={{ maxWidth: 1200, margin: '0 auto', padding: 16 }}>
                <BookingRoutes />
              </main>
            </BrowserRouter>
          </ToastProvider>
        </AppThemeProvider>
      </Provider>
    </StrictMode>,
  );
}

void start();
