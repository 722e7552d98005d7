import { act, screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { activateLocale, currentLocale, useTheme } from 'shared-ui';
import { apiConfig, configureApi, formatDayInMY, useAppStore } from 'shared-api';
import { startStandalone } from './appRoot';

/** What a remote's page can reach from inside the app root: the store, the theme and the router. */
function Probe() {
  const store = useAppStore();
  const theme = useTheme();
  const { pathname } = useLocation();
  return <p>{`${typeof store.getState().api} ${theme.colors.brand ? 'themed' : 'plain'} ${pathname}`}</p>;
}

describe('shared-api/app-root', () => {
  const baseUrl = apiConfig.baseUrl;
  beforeEach(() => {
    document.body.innerHTML = '<div id="root"></div>';
  });
  afterEach(async () => {
    configureApi({ baseUrl });
    jest.restoreAllMocks();
    await act(() => activateLocale('en'));
  });

  it("starts a remote on its own: the API address from /config.json, then the page's language, store, theme and router", async () => {
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify({ api: 'https://api.example.my' })));
    await act(() => startStandalone(<Probe />, 'en'));
    expect(await screen.findByText('object themed /')).toBeInTheDocument();
    expect(apiConfig.baseUrl).toBe('https://api.example.my');
    expect(currentLocale()).toBe('en');
  });

  it('keeps the build-time API address when no config stands beside the page', async () => {
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    await act(() => startStandalone(<Probe />, 'en'));
    expect(await screen.findByText('object themed /')).toBeInTheDocument();
    expect(apiConfig.baseUrl).toBe(baseUrl);
  });
});

describe("the page's language and shared-api's date words", () => {
  afterEach(() => act(() => activateLocale('en')));

  it('switches to Malay only with its day and month names loaded (shared-api gives them to the language registry)', async () => {
    await act(() => activateLocale('ms'));
    expect(formatDayInMY('2026-08-09', 'longDate', 'ms')).toBe('Ahad, 9 Ogos 2026');
  });
});
