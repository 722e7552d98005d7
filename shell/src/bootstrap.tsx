import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { configureApi, makeStore } from 'shared-api';
import { AppThemeProvider, ToastProvider } from 'shared-ui';
import { App } from './app/App';
import { loadRemoteRoutes, registerRemotesFromConfig } from './federation/remotes';
import { loadRuntimeConfig } from './federation/runtimeConfig';

// Created once at module level: stable across renders, shared by both remotes.
const loaders = { booking: loadRemoteRoutes('booking'), admin: loadRemoteRoutes('admin') };

async function start() {
  const config = await loadRuntimeConfig();
  configureApi({ baseUrl: config.api });
  registerRemotesFromConfig(config);
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

void start();
