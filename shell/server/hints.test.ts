import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PUBLIC_TIMETABLE_LIST_PATH } from 'shared-api/contract';
import { languageHints, localeOfRequest, pageDataHints, remotePreloadHints, securedAreaHints } from './hints';

let shellFolder: string;
let bookingFolder: string;
let adminFolder: string;

beforeAll(() => {
  shellFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-hints-'));
  bookingFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-hints-'));
  fs.writeFileSync(path.join(shellFolder, 'frame-ms.736998f057.js'), '');
  fs.writeFileSync(path.join(shellFolder, 'frame-ms.736998f057.js.br'), '');
  fs.writeFileSync(path.join(bookingFolder, 'home-ms.1848eb77e9.js'), '');
  adminFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-hints-'));
  fs.writeFileSync(
    path.join(adminFolder, 'preload-groups.json'),
    JSON.stringify({ 'secured-area': ['642.c3aa.js', 'secured-area.5a1c0e.js'], __federation_expose_routes: ['150.dbdb.js', '960.44f8.js', '__federation_expose_routes.3c30.js'] }),
  );
  fs.writeFileSync(path.join(adminFolder, 'mf-manifest.json'), JSON.stringify({ exposes: [{ path: './routes', assets: { js: { sync: ['150.dbdb.js'] } } }] }));
  fs.writeFileSync(
    path.join(bookingFolder, 'mf-manifest.json'),
    JSON.stringify({ exposes: [{ path: './other', assets: { js: { sync: ['x.js'] } } }, { path: './routes', assets: { js: { sync: ['9396.76c2.js', 'routes.3bd4.js'] } } }] }),
  );
});

afterAll(() => {
  for (const folder of [shellFolder, bookingFolder, adminFolder]) fs.rmSync(folder, { recursive: true, force: true });
});

describe('remotePreloadHints', () => {
  it("preloads the remote's entry and its routes' chunks at the address it is served from", () => {
    expect(remotePreloadHints('https://booking.example.my', bookingFolder)).toBe(
      '<link rel="preload" href="https://booking.example.my/remoteEntry.js" as="script">' +
        '<link rel="preload" href="https://booking.example.my/9396.76c2.js" as="script">' +
        '<link rel="preload" href="https://booking.example.my/routes.3bd4.js" as="script">',
    );
  });

  it("preloads every chunk its routes load from the build's preload groups, split chunks the manifest leaves out included", () => {
    expect(remotePreloadHints('https://admin.example.my', adminFolder)).toBe(
      '<link rel="preload" href="https://admin.example.my/remoteEntry.js" as="script">' +
        '<link rel="preload" href="https://admin.example.my/150.dbdb.js" as="script">' +
        '<link rel="preload" href="https://admin.example.my/960.44f8.js" as="script">' +
        '<link rel="preload" href="https://admin.example.my/__federation_expose_routes.3c30.js" as="script">',
    );
  });

  it("preloads only the entry when the remote's build cannot be read here", () => {
    const entryOnly = '<link rel="preload" href="https://admin.example.my/remoteEntry.js" as="script">';
    expect(remotePreloadHints('https://admin.example.my', undefined)).toBe(entryOnly);
    expect(remotePreloadHints('https://admin.example.my', path.join(bookingFolder, 'missing'))).toBe(entryOnly);
  });
});

describe('securedAreaHints', () => {
  it('preloads the secured area\'s chunks for a secured page only, when the admin build is readable here', () => {
    const hint = '<link rel="preload" href="https://admin.example.my/642.c3aa.js" as="script"><link rel="preload" href="https://admin.example.my/secured-area.5a1c0e.js" as="script">';
    expect(securedAreaHints('/secured/dashboard', 'https://admin.example.my', adminFolder)).toBe(hint);
    expect(securedAreaHints('/secured', 'https://admin.example.my', adminFolder)).toBe(hint);
    expect(securedAreaHints('/login', 'https://admin.example.my', adminFolder)).toBe('');
    expect(securedAreaHints('/securedx', 'https://admin.example.my', adminFolder)).toBe('');
    expect(securedAreaHints('/secured/dashboard', 'https://admin.example.my', bookingFolder)).toBe('');
    expect(securedAreaHints('/secured/dashboard', 'https://admin.example.my', undefined)).toBe('');
  });
});

describe('pageDataHints', () => {
  it("preloads the timetable's list call on / only, as the API client fetches it", () => {
    expect(pageDataHints('/', 'https://api.example.my')).toBe(
      `<link rel="preload" href="https://api.example.my${PUBLIC_TIMETABLE_LIST_PATH}" as="fetch" crossorigin="anonymous">`,
    );
    expect(pageDataHints('/login', 'https://api.example.my')).toBe('');
    expect(pageDataHints('/payment/success', 'https://api.example.my')).toBe('');
  });
});

describe('localeOfRequest', () => {
  const withCookie = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } });

  it('reads the lang cookie among others, and falls back to English for anything else', () => {
    expect(localeOfRequest(withCookie('lang=ms'))).toBe('ms');
    expect(localeOfRequest(withCookie('token=abc; lang=zh; other=1'))).toBe('zh');
    expect(localeOfRequest(withCookie('lang=fr'))).toBe('en');
    expect(localeOfRequest(withCookie('xlang=ms'))).toBe('en');
    expect(localeOfRequest(withCookie())).toBe('en');
  });

  it("without the cookie, takes the browser's preferred languages in their order of preference, as the page does", () => {
    const asking = (acceptLanguage: string, cookie?: string) => ({ headers: { 'accept-language': acceptLanguage, ...(cookie ? { cookie } : {}) } });
    expect(localeOfRequest(asking('ms-MY,ms;q=0.9,en;q=0.8'))).toBe('ms');
    expect(localeOfRequest(asking('fr-FR,en;q=0.5,zh-CN;q=0.8'))).toBe('zh');
    expect(localeOfRequest(asking('fr-FR,de;q=0.9'))).toBe('en');
    expect(localeOfRequest(asking('zh-CN,ms;q=0'))).toBe('zh');
    expect(localeOfRequest(asking('zh-CN', 'lang=ms'))).toBe('ms');
  });
});

describe('languageHints', () => {
  const chunks = () => ({ shellFolder, bookingFolder, bookingUrl: 'https://booking.example.my' });

  it("preloads the frame's words, and on / the timetable's words from the booking remote", () => {
    expect(languageHints('ms', '/', chunks())).toBe(
      '<link rel="preload" href="/frame-ms.736998f057.js" as="script"><link rel="preload" href="https://booking.example.my/home-ms.1848eb77e9.js" as="script">',
    );
    expect(languageHints('ms', '/login', chunks())).toBe('<link rel="preload" href="/frame-ms.736998f057.js" as="script">');
  });

  it("takes a booking release's words from its pointer record instead of a folder", () => {
    const release = { shellFolder, bookingUrl: 'https://booking.example.my/releases/v2', bookingWords: { ms: 'home-ms.v2.js' } };
    expect(languageHints('ms', '/', release)).toBe(
      '<link rel="preload" href="/frame-ms.736998f057.js" as="script"><link rel="preload" href="https://booking.example.my/releases/v2/home-ms.v2.js" as="script">',
    );
  });

  it('adds nothing for English, nor for a chunk the build does not have', () => {
    expect(languageHints('en', '/', chunks())).toBe('');
    expect(languageHints('zh', '/', chunks())).toBe('');
    expect(languageHints('ms', '/', { ...chunks(), bookingFolder: undefined })).toBe('<link rel="preload" href="/frame-ms.736998f057.js" as="script">');
  });
});
