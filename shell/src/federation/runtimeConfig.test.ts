import { defaultRuntimeConfig, loadRuntimeConfig, parseRuntimeConfig } from './runtimeConfig';

describe('runtime config (remotes.json)', () => {
  it('takes the addresses from remotes.json and drops a trailing slash from the API', () => {
    expect(
      parseRuntimeConfig({
        booking: 'https://booking.example.my/remoteEntry.js',
        admin: 'https://admin.example.my/remoteEntry.js',
        api: 'https://api.example.my/',
      }),
    ).toEqual({
      booking: 'https://booking.example.my/remoteEntry.js',
      admin: 'https://admin.example.my/remoteEntry.js',
      api: 'https://api.example.my',
    });
  });

  it('takes a remotes.json written for manifests as the remotes\' entries', () => {
    const config = parseRuntimeConfig({ booking: 'https://booking.example.my/v2/mf-manifest.json', admin: 'https://admin.example.my/remoteEntry.js' });
    expect(config.booking).toBe('https://booking.example.my/v2/remoteEntry.js');
    expect(config.admin).toBe('https://admin.example.my/remoteEntry.js');
  });

  it('falls back per entry when one is missing or not a string', () => {
    const config = parseRuntimeConfig({ booking: 42, admin: 'https://admin.example.my/remoteEntry.js' });
    expect(config.booking).toBe(defaultRuntimeConfig.booking);
    expect(config.admin).toBe('https://admin.example.my/remoteEntry.js');
    expect(config.api).toBe(defaultRuntimeConfig.api);
  });

  it('passes on the releases the shell\'s server chose and refused', () => {
    const remotes = { booking: 'https://booking.example.my/releases/v2/remoteEntry.js', admin: 'https://admin.example.my/remoteEntry.js' };
    const refused = [{ remote: 'booking', version: 'v3', problems: ['booking-remote needs shell contract ^2.0.0; the shell provides 1.0.0'] }];
    expect(parseRuntimeConfig({ ...remotes, versions: { booking: 'v2' }, refused })).toMatchObject({ versions: { booking: 'v2' }, refused });
    expect(parseRuntimeConfig(remotes)).not.toHaveProperty('versions');
  });

  it('keeps an http(s) errorReportUrl and leaves error reporting off when it is absent or malformed', () => {
    const remotes = { booking: 'https://booking.example.my/remoteEntry.js', admin: 'https://admin.example.my/remoteEntry.js' };
    expect(parseRuntimeConfig({ ...remotes, errorReportUrl: 'https://errors.example.my/report' }).errorReportUrl).toBe(
      'https://errors.example.my/report',
    );
    expect(parseRuntimeConfig(remotes)).not.toHaveProperty('errorReportUrl');
    expect(parseRuntimeConfig({ ...remotes, errorReportUrl: 'javascript:alert(1)' })).not.toHaveProperty('errorReportUrl');
    expect(parseRuntimeConfig({ ...remotes, errorReportUrl: '/relative' })).not.toHaveProperty('errorReportUrl');
  });

  it('uses the local defaults when remotes.json cannot be fetched', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failingFetch = (async () => new Response('nope', { status: 404 })) as typeof fetch;
    await expect(loadRuntimeConfig('/remotes.json', failingFetch)).resolves.toEqual(defaultRuntimeConfig);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('reads remotes.json when it is served', async () => {
    const served = { booking: 'http://b.test/remoteEntry.js', admin: 'http://a.test/remoteEntry.js', api: 'http://api.test' };
    const okFetch = (async () => new Response(JSON.stringify(served), { status: 200 })) as typeof fetch;
    await expect(loadRuntimeConfig('/remotes.json', okFetch)).resolves.toEqual(served);
  });
});
