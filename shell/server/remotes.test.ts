import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseRemotesJson, remotesSource } from './remotes';

const good = { booking: 'https://booking.example.my/remoteEntry.js', admin: 'https://admin.example.my/remoteEntry.js', api: 'https://api.example.my' };

describe('parseRemotesJson', () => {
  it('keeps the addresses (the API without a trailing slash) and the optional error report endpoint', () => {
    expect(parseRemotesJson({ ...good, api: 'https://api.example.my/', extra: 1 }, 'test')).toEqual(good);
    expect(parseRemotesJson({ ...good, errorReportUrl: 'https://errors.example.my/r' }, 'test')).toEqual({ ...good, errorReportUrl: 'https://errors.example.my/r' });
  });

  it('refuses a missing or non-http address, naming the field', () => {
    expect(() => parseRemotesJson({ ...good, admin: undefined }, 'remotes.json')).toThrow('remotes.json: "admin" must be an http(s) address, got undefined');
    expect(() => parseRemotesJson({ ...good, api: 'javascript:alert(1)' }, 'x')).toThrow('"api" must be an http(s) address');
    expect(() => parseRemotesJson({ ...good, booking: '/booking/remoteEntry.js' }, 'x')).toThrow('"booking" must be an http(s) address');
    expect(() => parseRemotesJson({ ...good, errorReportUrl: 'ftp://x' }, 'x')).toThrow('"errorReportUrl" must be an http(s) address');
    expect(() => parseRemotesJson([good], 'x')).toThrow('expected an object');
  });
});

describe('remotesSource', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-remotes-'));
    file = path.join(dir, 'remotes.json');
    fs.writeFileSync(file, JSON.stringify(good));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const rewrite = (content: string, ageMs: number) => {
    fs.writeFileSync(file, content);
    // A distinct modification time, whatever the file system's resolution.
    const at = new Date(Date.now() + ageMs);
    fs.utimesSync(file, at, at);
  };

  it("takes the environment's addresses over the file's", () => {
    const remotes = remotesSource(file, { BOOKING_REMOTE_URL: 'https://cdn.example.my/booking/v2/', API_URL: 'https://api2.example.my' });
    expect(remotes()).toEqual({ ...good, booking: 'https://cdn.example.my/booking/v2/remoteEntry.js', api: 'https://api2.example.my' });
  });

  it('works from the environment alone when there is no file', () => {
    const env = { BOOKING_REMOTE_URL: 'https://b.example.my', ADMIN_REMOTE_URL: 'https://a.example.my', API_URL: 'https://api.example.my', ERROR_REPORT_URL: 'https://e.example.my/r' };
    expect(remotesSource(path.join(dir, 'none.json'), env)()).toEqual({
      booking: 'https://b.example.my/remoteEntry.js',
      admin: 'https://a.example.my/remoteEntry.js',
      api: 'https://api.example.my',
      errorReportUrl: 'https://e.example.my/r',
    });
  });

  it('refuses to start on a wrong address', () => {
    expect(() => remotesSource(file, { API_URL: 'not a url' })).toThrow('"api" must be an http(s) address');
  });

  it('follows an edit of the file, and keeps the last good one (saying so) through a wrong edit', () => {
    const warnings: string[] = [];
    const remotes = remotesSource(file, {}, (line) => warnings.push(line));
    rewrite(JSON.stringify({ ...good, admin: 'https://admin2.example.my/remoteEntry.js' }), 10_000);
    expect(remotes().admin).toBe('https://admin2.example.my/remoteEntry.js');
    rewrite('{"booking": ', 20_000);
    expect(remotes().admin).toBe('https://admin2.example.my/remoteEntry.js');
    expect(remotes().admin).toBe('https://admin2.example.my/remoteEntry.js');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^remotes.json not changed: /);
  });
});
