import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { configureApi, makeStore } from 'shared-api';
import { AppThemeProvider, ToastProvider } from 'shared-ui';
import { App } from './app/App';
import type { Startup } from './federation/startup';

/** Renders the page once remotes.json is read; `loaders` is created once, so it is stable across renders. */
export async function start({ config: configRead, loaders }: Startup) {
  const config = await configRead;
  configureApi({ baseUrl: config.api });
  // The one store of the page; remotes add endpoints and lazy slices to it.
  const store = makeStore();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provider store={store}>
        <AppThemeProvider>
          <ToastProvider>
            <BrowserRouter>
              <App loaders={loaders} />
            </BrowserRouter>
          </ToastProvider>
        </AppThemeProvider>
      </Provider>
    </StrictMode>,
  );
}
