import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureApi } from 'shared-api';
import type { ErrorReport } from 'shared-api/report-error';
import { AppThemeProvider } from 'shared-ui';
import type { RoutesModule } from '../federation/remotes';
import { remoteVersions } from '../federation/runtimeConfig';
import { RemoteSlot } from './RemoteSlot';

const texts = {
  remote: 'admin' as const,
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

  describe('error reports', () => {
    const sendBeacon = jest.fn<boolean, [string, string]>(() => true);
    beforeAll(() => Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true }));
    beforeEach(() => sendBeacon.mockClear());
    afterEach(() => configureApi({ errorReportUrl: undefined }));

    it('reports a remote that cannot be loaded to the configured errorReportUrl, naming the remote', async () => {
      configureApi({ errorReportUrl: 'https://errors.example.my/report' });
      render(<RemoteSlot load={() => Promise.reject(new Error('remoteEntry.js: net::ERR_CONNECTION_REFUSED'))} {...texts} />, {
        wrapper: AppThemeProvider,
      });
      await screen.findByRole('alert');
      await waitFor(() => expect(sendBeacon).toHaveBeenCalledTimes(1));
      const [url, body] = sendBeacon.mock.calls[0];
      expect(url).toBe('https://errors.example.my/report');
      expect(JSON.parse(body) as ErrorReport).toMatchObject({ message: 'remoteEntry.js: net::ERR_CONNECTION_REFUSED', remote: 'admin' });
    });

    it('names the release of the remote that failed (remotes.json `versions`), so failures can be counted per version', async () => {
      configureApi({ errorReportUrl: 'https://errors.example.my/report' });
      remoteVersions.admin = '4302630a90-99bb786';
      try {
        render(<RemoteSlot load={() => Promise.reject(new Error('chunk failed'))} {...texts} />, { wrapper: AppThemeProvider });
        await screen.findByRole('alert');
        await waitFor(() => expect(sendBeacon).toHaveBeenCalledTimes(1));
        expect(JSON.parse(sendBeacon.mock.calls[0][1]) as ErrorReport).toMatchObject({ remote: 'admin', buildId: '4302630a90-99bb786' });
      } finally {
        delete remoteVersions.admin;
      }
    });

    it('sends nothing when no errorReportUrl is configured', async () => {
      render(<RemoteSlot load={() => Promise.reject(new Error('down'))} {...texts} />, { wrapper: AppThemeProvider });
      await screen.findByRole('alert');
      // The boundary's reporter chunk has loaded and run by the time this import (queued after it) resolves.
      await import('shared-api/report-error');
      expect(sendBeacon).not.toHaveBeenCalled();
    });
  });
});
