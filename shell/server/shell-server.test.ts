// The shell's server in this process, on a small built folder: which answer each request gets.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brand, brandTitle, PERMISSIONS_POLICY, PUBLIC_TIMETABLE_LIST_PATH } from 'shared-api/contract';
import type { RemotesJson } from './remotes';
import { startShellServer } from './shell-server';
import type { RunningServer } from './static-files';

const builtNoScript = '<noscript><p class="no-js">This booking page needs JavaScript.</p></noscript>';
const builtHtml = `<!doctype html><html lang="en-MY"><head><title>t</title><script defer src="/main.0123abcd.js"></script></head><body>${builtNoScript}</body></html>`;
let root: string;
let bookingFolder: string;
let remotes: RemotesJson;
let server: RunningServer;
let plain: RunningServer;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-server-'));
  bookingFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-server-booking-'));
  fs.writeFileSync(path.join(root, 'index.html'), builtHtml);
  fs.writeFileSync(path.join(root, 'main.0123abcd.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, 'frame-ms.0123abcd.js'), '');
  // The build's own remotes.json: the generated one takes its place.
  fs.writeFileSync(path.join(root, 'remotes.json'), '{"booking": "http://localhost:3001/remoteEntry.js"}');
  fs.writeFileSync(path.join(bookingFolder, 'mf-manifest.json'), JSON.stringify({ exposes: [{ path: './routes', assets: { js: { sync: ['routes.0123abcd.js'] } } }] }));
  remotes = { booking: 'https://booking.example.my/remoteEntry.js', admin: 'https://admin.example.my/remoteEntry.js', api: 'https://api.example.my' };
  // Server rendering and releases have their own tests (server-render.test.ts, live-releases.test.ts): these are
  // about the page as built (and ask no remote host for a releases pointer).
  const options = { root, port: 0, host: '127.0.0.1', remotes: () => remotes, followReleases: false };
  server = await startShellServer({ ...options, remoteFolders: { booking: bookingFolder }, serverRender: false });
  plain = await startShellServer({ ...options, preloadHints: false });
});

afterAll(async () => {
  await Promise.all([server?.close(), plain?.close()]);
  for (const folder of [root, bookingFolder]) fs.rmSync(folder, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') => fetch(url, { method, headers });
const scriptSources = (response: Response) => /script-src ([^;]*)/.exec(response.headers.get('content-security-policy') ?? '')?.[1];

test('every answer (a page, a file, remotes.json, a 404) carries the headers every server sends and the shell\'s own', async () => {
  for (const url of ['/', '/main.0123abcd.js', '/remotes.json', '/missing.js']) {
    const response = await get(`${server.url}${url}`);
    expect([url, response.headers.get('x-content-type-options'), response.headers.get('referrer-policy'), response.headers.get('permissions-policy')]).toEqual([
      url,
      'nosniff',
      'no-referrer',
      PERMISSIONS_POLICY,
    ]);
    expect([url, response.headers.get('x-frame-options'), response.headers.get('cross-origin-opener-policy')]).toEqual([url, 'DENY', 'same-origin']);
  }
});

test('/remotes.json is generated from the current configuration, never from the built file, and revalidated', async () => {
  const response = await get(`${server.url}/remotes.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-cache');
  expect(await response.json()).toEqual(remotes);
});

test('/ is the built page with the hints for the booking remote at its address and for the timetable data', async () => {
  const response = await get(`${server.url}/`, { 'accept-encoding': 'identity' });
  expect(response.headers.get('vary')).toBe('Accept-Encoding, Accept-Language, Cookie');
  expect(response.headers.get('cache-control')).toBe('no-cache');
  expect(await response.text()).toBe(
    builtHtml
      .replace('<title>t</title>', `<title>Book an assessment visit · ${brand.title}</title>`)
      .replace(builtNoScript, '<noscript><p class="no-js">This booking page needs JavaScript. Please turn it on in your browser.</p></noscript>')
      .replace(
        '</head>',
        `<link rel="preload" href="https://api.example.my${PUBLIC_TIMETABLE_LIST_PATH}" as="fetch" crossorigin="anonymous">` +
          '<link rel="preload" href="https://booking.example.my/remoteEntry.js" as="script">' +
          '<link rel="preload" href="https://booking.example.my/routes.0123abcd.js" as="script"></head>',
      ),
  );
});

test('a deep link of the staff side is the page with the admin remote\'s hint, in English whatever the parent chose', async () => {
  const login = await (await get(`${server.url}/login`)).text();
  expect(login).toContain('<link rel="preload" href="https://admin.example.my/remoteEntry.js" as="script"></head>');
  expect(login).toContain('<html lang="en">');
  const dashboard = await (await get(`${server.url}/secured/dashboard`, { cookie: 'lang=ms' })).text();
  expect(dashboard).toContain('<html lang="en">');
  expect(dashboard).not.toContain('frame-ms');
});

test("a parent's page in the language they chose: <html lang> and its words' chunk", async () => {
  const malay = await (await get(`${server.url}/payment/success`, { cookie: 'lang=ms' })).text();
  expect(malay).toContain('<html lang="ms">');
  expect(malay).toContain('<link rel="preload" href="/frame-ms.0123abcd.js" as="script">');
  expect(await (await get(`${server.url}/payment/success`)).text()).toContain('<html lang="en-MY">');
});

test("each page's title names it in the page's language, the staff side in English", async () => {
  const title = async (url: string, cookie = '') => /<title>([^<]*)<\/title>/.exec(await (await get(`${server.url}${url}`, { cookie })).text())?.[1];
  expect(await title('/payment/success')).toBe(`Payment successful · ${brand.title}`);
  expect(await title('/payment/success', 'lang=ms')).toBe(`Bayaran berjaya · ${brandTitle('ms')}`);
  expect(await title('/thankyou', 'lang=zh')).toBe(`预约完成 · ${brandTitle('zh')}`);
  expect(await title('/waitlist/t0k3n', 'lang=zh')).toBe(`您在候补名单中的位置 · ${brandTitle('zh')}`);
  expect(await title('/no-such-page', 'lang=ms')).toBe(`Halaman tidak dijumpai · ${brandTitle('ms')}`);
  expect(await title('/login', 'lang=zh')).toBe(`Staff login · ${brand.title}`);
  expect(await title('/secured/dashboard', 'lang=ms')).toBe(`Dashboard · ${brand.title}`);
});

test('without JavaScript, /login says the staff login needs it and a parent\'s page says so in their language', async () => {
  const noScript = async (url: string, cookie = '') => /<noscript>([\s\S]*?)<\/noscript>/.exec(await (await get(`${server.url}${url}`, { cookie })).text())?.[1];
  for (const cookie of ['', 'lang=zh'])
    expect(await noScript('/login', cookie)).toBe('<p class="no-js">The staff login needs JavaScript. Please turn it on in your browser.</p>');
  expect(await noScript('/payment/failure', 'lang=ms')).toBe('<p class="no-js">Halaman tempahan ini memerlukan JavaScript. Sila hidupkannya dalam pelayar anda.</p>');
  expect(await noScript('/', 'lang=zh')).toBe('<p class="no-js">此预约页面需要 JavaScript。请在浏览器中启用。</p>');
});

test('the page comes compressed, and a browser holding it gets 304', async () => {
  const first = await get(`${server.url}/`, { 'accept-encoding': 'br' });
  expect(first.headers.get('content-encoding')).toBe('br');
  const etag = first.headers.get('etag')!;
  const again = await get(`${server.url}/`, { 'accept-encoding': 'br', 'if-none-match': etag });
  expect(again.status).toBe(304);
  expect(again.headers.get('etag')).toBe(etag);
  // The same page in Malay is another variant.
  expect((await get(`${server.url}/`, { 'accept-encoding': 'br', 'if-none-match': etag, cookie: 'lang=ms' })).status).toBe(200);
});

test('files are answered from the folder with their cache rule; a missing file, a path outside and other methods are not', async () => {
  const script = await get(`${server.url}/main.0123abcd.js`);
  expect(script.status).toBe(200);
  expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(script.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(script.headers.get('access-control-allow-origin')).toBeNull();
  expect((await get(`${server.url}/main.missing.js`)).status).toBe(404);
  expect((await get(`${server.url}/..%2F..%2F..%2Fetc%2Fpasswd.txt`)).status).toBe(404);
  const post = await get(`${server.url}/`, {}, 'POST');
  expect(post.status).toBe(405);
  expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
});

test("every answer's policy follows remotes.json as it is at that request", async () => {
  expect(scriptSources(await get(`${server.url}/main.0123abcd.js`))).toBe("'self' https://booking.example.my https://admin.example.my");
  const before = remotes;
  try {
    remotes = { ...remotes, admin: 'https://cdn.example.my/admin/v2/remoteEntry.js' };
    const login = await get(`${server.url}/login`);
    expect(scriptSources(login)).toBe("'self' https://booking.example.my https://cdn.example.my");
    expect(await login.text()).toContain('<link rel="preload" href="https://cdn.example.my/admin/v2/remoteEntry.js" as="script">');
    expect((await (await get(`${server.url}/remotes.json`)).json()).admin).toBe('https://cdn.example.my/admin/v2/remoteEntry.js');
  } finally {
    remotes = before;
  }
});

test('with preload hints off the page is the built file, whatever the language', async () => {
  const response = await get(`${plain.url}/login`, { cookie: 'lang=ms', 'accept-encoding': 'identity' });
  expect(await response.text()).toBe(builtHtml);
  expect(response.headers.get('vary')).toBe('Accept-Encoding');
  expect(response.headers.get('content-security-policy')).toContain('https://admin.example.my');
});
