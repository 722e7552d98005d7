import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acceptedEncodings, cacheControlFor, pickEncoding, resolveFile } from './static-files';

let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-static-'));
  fs.writeFileSync(path.join(root, 'index.html'), '<html></html>');
  fs.writeFileSync(path.join(root, 'main.0123abcd.js'), 'x');
  fs.writeFileSync(path.join(root, 'main.0123abcd.js.br'), 'b');
  fs.writeFileSync(path.join(root, 'main.0123abcd.js.gz'), 'g');
  fs.writeFileSync(path.join(root, 'plain.js'), 'x');
  fs.writeFileSync(path.join(root, 'plain.js.gz'), 'g');
  fs.mkdirSync(path.join(root, 'docs'));
  fs.writeFileSync(path.join(root, 'docs', 'index.html'), '<p>docs</p>');
  fs.writeFileSync(path.join(os.tmpdir(), 'outside-shell-static.txt'), 'secret');
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(path.join(os.tmpdir(), 'outside-shell-static.txt'), { force: true });
});

describe('cacheControlFor', () => {
  it('keeps hashed files a year and asks again for the names that point at them', () => {
    expect(cacheControlFor('main.0123abcd.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('frame-ms.736998f057.js')).toBe('public, max-age=31536000, immutable');
    for (const name of ['remoteEntry.js', 'mf-manifest.json', 'mf-stats.json', 'remotes.json', 'index.html', 'favicon.ico', 'main.js'])
      expect([name, cacheControlFor(name)]).toEqual([name, 'no-cache']);
  });
});

describe('encodings', () => {
  it('reads Accept-Encoding with its weights, leaving out q=0', () => {
    expect(acceptedEncodings('gzip, deflate, BR;q=0.5')).toEqual(['gzip', 'deflate', 'br']);
    expect(acceptedEncodings('br;q=0, gzip')).toEqual(['gzip']);
    expect(acceptedEncodings(undefined)).toEqual([]);
  });

  it('sends brotli, else gzip, else the file itself, and only a pre-compressed copy that exists', () => {
    const hashed = path.join(root, 'main.0123abcd.js');
    expect(pickEncoding('gzip, br', hashed)).toEqual({ encoding: 'br', path: `${hashed}.br` });
    expect(pickEncoding('br;q=0, gzip', hashed)).toEqual({ encoding: 'gzip', path: `${hashed}.gz` });
    expect(pickEncoding('identity', hashed)).toEqual({ path: hashed });
    const plain = path.join(root, 'plain.js');
    expect(pickEncoding('br', plain)).toEqual({ path: plain });
    expect(pickEncoding('br, gzip', plain)).toEqual({ encoding: 'gzip', path: `${plain}.gz` });
  });
});

describe('resolveFile', () => {
  it("answers a file, a folder's index.html, and deep links with the root's index.html", () => {
    expect(resolveFile(root, '/main.0123abcd.js', true)).toBe(path.join(root, 'main.0123abcd.js'));
    expect(resolveFile(root, '/docs', true)).toBe(path.join(root, 'docs', 'index.html'));
    expect(resolveFile(root, '/secured/dashboard', true)).toBe(path.join(root, 'index.html'));
    expect(resolveFile(root, '/secured/dashboard', false)).toBeUndefined();
  });

  it('never answers a missing file with an extension, nor anything outside the folder', () => {
    expect(resolveFile(root, '/main.missing.js', true)).toBeUndefined();
    expect(resolveFile(root, '/../outside-shell-static.txt', true)).toBeUndefined();
    expect(resolveFile(root, '/..%2Foutside-shell-static.txt', true)).toBeUndefined();
    expect(resolveFile(root, `/..%2F${path.basename(root)}%2F..%2Foutside-shell-static.txt`, true)).toBeUndefined();
    expect(resolveFile(root, '/%E0%A4%A', true)).toBeUndefined();
  });
});
