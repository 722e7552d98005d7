import { configureApi } from 'shared-api';
import { startI18n } from 'shared-ui';
import { renderApp } from 'shared-ui/app-root';
import { App } from './app/App';
import type { RoutesModule } from './federation/remotes';
import type { Startup } from './federation/startup';

/** How long the first render waits for the page's remote: the frame alone is of no use to a parent. */
export const FIRST_RENDER_WAIT_MS = 1000;

/** Renders the page once remotes.json is read; `loaders` is created once, so it is stable across renders. */
export async function start({ config: configRead, loaders, pageRemote, pageRemoteLoaded }: Startup) {
  const config = await configRead;
  configureApi({ baseUrl: config.api, errorReportUrl: config.errorReportUrl });
  // Usually a few hundred ms on a slow phone: then frame and page appear together, with no spinner in between.
  // The language's catalogues (English: already here) load while the remote does.
  const [loadedRoutes] = await Promise.all([
    Promise.race([
      pageRemoteLoaded,
      new Promise<RoutesModule | undefined>((resolve) => setTimeout(() => resolve(undefined), FIRST_RENDER_WAIT_MS)),
    ]),
    startI18n(),
  ]);
  // The one store of the page (renderApp makes it); remotes add endpoints and lazy slices to it.
  renderApp(<App loaders={loaders} loaded={{ [pageRemote]: loadedRoutes }} />);
}
