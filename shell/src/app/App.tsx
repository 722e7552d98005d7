import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { activateLocale, currentLocale, initialLocale, styled, useCatalog, type Translate } from 'shared-ui';
import type { RemoteLoader, RoutesModule } from '../federation/remotes';
import type { RemoteName } from '../federation/runtimeConfig';
import { Header } from '../frame/Header';
import { RemoteSlot } from '../frame/RemoteSlot';
import { shellCatalog } from '../i18n';
import { usePageChange } from '../page-change/usePageChange';
import { pageLocale } from './pageLocale';
import { remoteForPath } from './remoteForPath';

/** The page content's frame (the shell's server draws it around a server-rendered page too). */
export const Main = styled.main`
  max-width: 1200px;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space[4]} ${theme.space[4]} ${theme.space[8]}`};
`;

type ShellMessages = NonNullable<typeof shellCatalog.messages>;

const slotTexts = (t: Translate<ShellMessages>): Record<RemoteName, { unavailableTitle: string; unavailableMessage: string; loadingLabel: string }> => ({
  booking: {
    unavailableTitle: t('bookingUnavailableTitle'),
    unavailableMessage: t('unavailableMessage'),
    loadingLabel: t('bookingLoading'),
  },
  admin: {
    unavailableTitle: t('staffUnavailableTitle'),
    unavailableMessage: t('unavailableMessage'),
    loadingLabel: t('staffLoading'),
  },
});

/** The page frame; the route decides which remote fills it (each behind its own error boundary). */
export function App({ loaders, loaded = {} }: { loaders: Record<RemoteName, RemoteLoader>; loaded?: Partial<Record<RemoteName, RoutesModule>> }) {
  const { pathname } = useLocation();
  const remote = remoteForPath(pathname);
  const { t, locale } = useCatalog(shellCatalog);
  // The title and focus follow a page change (one place for every page of both remotes).
  usePageChange(pathname, locale);
  // Moving between the sides (the header's Login link, Back to the timetable): the staff side is English, the public
  // side the parent's language again (`<html lang>` follows).
  useEffect(() => {
    const wanted = pageLocale(pathname, initialLocale());
    if (wanted !== currentLocale()) void activateLocale(wanted);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a change of side only
  }, [remote]);
  return (
    <>
      <Header />
      <Main>
        <RemoteSlot key={remote} remote={remote} load={loaders[remote]} loaded={loaded[remote]} {...slotTexts(t)[remote]} />
      </Main>
    </>
  );
}
