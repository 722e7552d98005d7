import { useLocation } from 'react-router-dom';
import { styled } from 'shared-ui';
import type { RemoteLoader, RoutesModule } from '../federation/remotes';
import type { RemoteName } from '../federation/runtimeConfig';
import { Header } from '../frame/Header';
import { RemoteSlot } from '../frame/RemoteSlot';
import { remoteForPath } from './remoteForPath';

const Main = styled.main`
  max-width: 1200px;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space[4]} ${theme.space[4]} ${theme.space[8]}`};
`;

const slotTexts: Record<RemoteName, { unavailableTitle: string; unavailableMessage: string; loadingLabel: string }> = {
  booking: {
    unavailableTitle: 'The booking page could not be loaded',
    unavailableMessage: 'Please check your connection and try again.',
    loadingLabel: 'Loading the booking page',
  },
  admin: {
    unavailableTitle: 'The staff area could not be loaded',
    unavailableMessage: 'Please check your connection and try again.',
    loadingLabel: 'Loading the staff area',
  },
};

/** The page frame; the route decides which remote fills it (each behind its own error boundary). */
export function App({ loaders, loaded = {} }: { loaders: Record<RemoteName, RemoteLoader>; loaded?: Partial<Record<RemoteName, RoutesModule>> }) {
  const remote = remoteForPath(useLocation().pathname);
  return (
    <>
      <Header />
      <Main>
        <RemoteSlot key={remote} remote={remote} load={loaders[remote]} loaded={loaded[remote]} {...slotTexts[remote]} />
      </Main>
    </>
  );
}
