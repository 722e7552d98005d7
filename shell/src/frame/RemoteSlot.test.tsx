import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppThemeProvider } from 'shared-ui';
import type { RoutesModule } from '../federation/remotes';
import { RemoteSlot } from './RemoteSlot';

const texts = {
  unavailableTitle: 'The staff area could not be loaded',
  unavailableMessage: 'Please check your connection and try again.',
  loadingLabel: 'Loading the staff area',
};

const remoteModule = (text: string): RoutesModule => ({ default: () => <p>{text}</p> });

describe('RemoteSlot', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('renders the remote once it has loaded', async () => {
    render(<RemoteSlot load={async () => remoteModule('Staff login')} {...texts} />, { wrapper: AppThemeProvider });
    expect(await screen.findByText('Staff login')).toBeInTheDocument();
  });

  it('draws routes that loaded before the first render at once, without the loading spinner', () => {
    const load = jest.fn(async () => remoteModule('again'));
    render(<RemoteSlot load={load} loaded={remoteModule('Staff login')} {...texts} />, { wrapper: AppThemeProvider });
    // Synchronously, in the very first commit.
    expect(screen.getByText('Staff login')).toBeInTheDocument();
    expect(screen.queryByText(texts.loadingLabel)).not.toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
  });

  it('shows the error panel when the remote cannot be loaded, and Retry loads it again in place', async () => {
    const load = jest
      .fn<Promise<RoutesModule>, []>()
      .mockRejectedValueOnce(new Error('remoteEntry.js: net::ERR_CONNECTION_REFUSED'))
      .mockResolvedValueOnce(remoteModule('Staff login'));
    render(<RemoteSlot load={load} {...texts} />, { wrapper: AppThemeProvider });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The staff area could not be loaded');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('Staff login')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps showing the panel while the remote stays down', async () => {
    const load = jest.fn<Promise<RoutesModule>, []>().mockRejectedValue(new Error('down'));
    render(<RemoteSlot load={load} {...texts} />, { wrapper: AppThemeProvider });
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The staff area could not be loaded');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('catches a crash inside the remote too (the rest of the page stays)', async () => {
    const Crashing = () => {
      throw new Error('render failed');
    };
    render(
      <>
        <header>frame</header>
        <RemoteSlot load={async () => ({ default: Crashing })} {...texts} />
      </>,
      { wrapper: AppThemeProvider },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('The staff area could not be loaded');
    expect(screen.getByText('frame')).toBeInTheDocument();
  });
});
