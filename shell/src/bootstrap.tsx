import { configureApi } from 'shared-api';
import { renderApp } from 'shared-api/app-root';
import { initialLocale, startI18n } from 'shared-ui';
import { App } from './app/App';
import { pageLocale } from './app/pageLocale';
import { serverStateOfPage } from './app/serverState';
import type { RoutesModule } from './federation/remotes';
import type { Startup } from './federation/startup';

/** How long the first render waits for the page's remote: the frame alone is of no use to a parent. */
export const FIRST_RENDER_WAIT_MS = 1000;

/** Renders the page once remotes.json is read; `loaders` is created once, so it is stable across renders. */
export async function start({ config: configRead, loaders, pageRemote, pageRemoteLoaded }: Startup) {
  const config = await configRead;
  configureApi({ baseUrl: config.api, errorReportUrl: config.errorReportUrl });
  // A remote release this shell cannot host was passed over by the shell's server: the team hears of it.
  if (config.refused?.length)
    void import('shared-api/report-error').then(({ reportError }) =>
      config.refused!.forEach(({ remote, version, problems }) => reportError(new Error(`${remote} ${version} refused: ${problems.join('; ')}`), { remote, buildId: version })),
    );
  // A page rendered on the server is already showing: wait for the remote and all its words, so the first render
  // draws that same page (no spinner, no English flash) over it.
  const state = serverStateOfPage();
  // Usually a few hundred ms on a slow phone: then frame and page appear together, with no spinner in between.
  // The language's catalogues (English: already here) load while the remote does.
  const [loadedRoutes] = await Promise.all([
    Promise.race([
      pageRemoteLoaded,
      new Promise<RoutesModule | undefined>((resolve) => setTimeout(() => resolve(undefined), state ? 10 * FIRST_RENDER_WAIT_MS : FIRST_RENDER_WAIT_MS)),
    ]),
    startI18n(pageLocale(window.location.pathname, initialLocale())),
  ]);
  if (state) await startI18n();
  // The one store of the page (renderApp makes it); remotes add endpoints and lazy slices to it.
  renderApp(<App loaders={loaders} loaded={{ [pageRemote]: loadedRoutes }} />, state);
}
