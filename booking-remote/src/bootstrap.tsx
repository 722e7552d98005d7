// Standalone start of the public side (its own team runs it on its own port): own store, router, theme, toasts.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { configureApi, makeStore } from 'shared-api';
import { AppThemeProvider, ToastProvider } from 'shared-ui';
import BookingRoutes from './routes';

configureApi({ baseUrl: process.env.API_BASE_URL || 'http://localhost:4000' });
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
