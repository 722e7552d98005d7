import { apiConfig, configureApi } from './config';
import { REPORT_STACK_CHARS, reportError, type ErrorReport } from './reportError';

const sendBeacon = jest.fn<boolean, [string, string]>();
const fetchSpy = jest.fn(async () => new Response(null));

beforeAll(() => Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true }));
beforeEach(() => {
  sendBeacon.mockReset().mockReturnValue(true);
  fetchSpy.mockClear();
  jest.spyOn(globalThis, 'fetch').mockImplementation(fetchSpy);
  window.history.pushState({}, '', '/payment/success?ref=BK-123&payment_id=pay_9');
});
afterEach(() => {
  configureApi({ errorReportUrl: undefined });
  jest.restoreAllMocks();
});

const sentReport = (): ErrorReport => JSON.parse(sendBeacon.mock.calls[0][1]) as ErrorReport;

describe('reportError', () => {
  it('sends nothing while no errorReportUrl is configured (the default)', () => {
    expect(apiConfig.errorReportUrl).toBeUndefined();
    reportError(new Error('render failed'), { remote: 'booking' });
    expect(sendBeacon).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('beacons message, remote, route path without its query string, user agent and a cut stack', () => {
    configureApi({ errorReportUrl: 'https://errors.example.my/report' });
    const error = new Error('render failed');
    error.stack = `Error: render failed\n${'    at Component (chunk.js:1:1)\n'.repeat(500)}`;
    reportError(error, { remote: 'booking', buildId: 'b42' });

    expect(sendBeacon).toHaveBeenCalledTimes(1);
    expect(sendBeacon.mock.calls[0][0]).toBe('https://errors.example.my/report');
    const report = sentReport();
    expect(report).toMatchObject({ message: 'render failed', remote: 'booking', path: '/payment/success', buildId: 'b42', userAgent: navigator.userAgent });
    expect(report.stack).toHaveLength(REPORT_STACK_CHARS);
    expect(JSON.stringify(report)).not.toContain('BK-123');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('falls back to a keepalive fetch when the browser refuses the beacon', () => {
    configureApi({ errorReportUrl: 'https://errors.example.my/report' });
    sendBeacon.mockReturnValue(false);
    reportError('not an Error', { remote: 'admin' });
    expect(fetchSpy).toHaveBeenCalledWith('https://errors.example.my/report', expect.objectContaining({ method: 'POST', keepalive: true }));
    const init = (fetchSpy.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(JSON.parse(init.body as string)).toMatchObject({ message: 'not an Error', remote: 'admin' });
  });
});
