// Every message catalogue in the repository (`**/locales/<language>.json`): the languages agree on their ids, every
// text is valid ICU MessageFormat, and a translation names no placeholder its English text lacks.
import fs from 'node:fs';
import path from 'node:path';
import MessageFormat from '@messageformat/core';
import { parse, type Token } from '@messageformat/parser';

const repoRoot = path.resolve(__dirname, '..', '..');
const skip = new Set(['node_modules', 'dist', '.git', 'coverage', 'docs']);

function catalogueFolders(dir: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || skip.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.name === 'locales' && fs.existsSync(path.join(full, 'en.json'))) found.push(full);
    else catalogueFolders(full, found);
  }
  return found;
}

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;

/** The argument names a message uses (placeholders, plural and select arguments), however deeply nested. */
function argumentNames(text: string): Set<string> {
  const names = new Set<string>();
  const walk = (tokens: Token[]): void => {
    for (const token of tokens) {
      if ('arg' in token) names.add(token.arg);
      if ('cases' in token) token.cases.forEach((c) => walk(c.tokens));
    }
  };
  walk(parse(text));
  return names;
}

/** What the build does with a catalogue text (scripts/i18n/catalog-loader.cjs): it must not throw. */
const compile = (file: string, text: string) => new MessageFormat(path.basename(file, '.json'), { currency: 'MYR' }).compile(text);

const folders = catalogueFolders(repoRoot);
const rel = (file: string) => path.relative(repoRoot, file);

// The parent side speaks all three languages; the staff side (admin-remote) is English only for now.
const parentSide = (folder: string) => !rel(folder).startsWith('admin-remote');

describe('message catalogues', () => {
  it('are found for the shell, both remotes, the design system, the contract and the server', () => {
    const roots = new Set(folders.map((folder) => rel(folder).split(path.sep)[0]));
    expect([...roots].sort()).toEqual(expect.arrayContaining(['booking-remote', 'shell']));
  });

  describe.each(folders.map((folder) => [rel(folder), folder]))('%s', (_name, folder) => {
    const en = read(path.join(folder, 'en.json'));
    const languages = fs.readdirSync(folder).filter((file) => file.endsWith('.json'));

    it('has every text as a string of valid ICU MessageFormat', () => {
      for (const file of languages) {
        for (const [id, text] of Object.entries(read(path.join(folder, file)))) {
          expect({ file, id, type: typeof text }).toEqual({ file, id, type: 'string' });
          expect(() => compile(file, text as string)).not.toThrow();
        }
      }
    });

    if (parentSide(folder)) {
      it('has English, Malay and Chinese', () => {
        expect(languages.sort()).toEqual(['en.json', 'ms.json', 'zh.json']);
      });
    }

    const translations = languages.filter((file) => file !== 'en.json');
    // English-only catalogues (the staff side) have nothing to compare.
    if (translations.length === 0) return;

    it.each(translations)('%s has exactly the English ids', (file) => {
      const other = read(path.join(folder, file));
      expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
    });

    it.each(translations)('%s uses no placeholder the English text lacks', (file) => {
      const other = read(path.join(folder, file));
      for (const [id, text] of Object.entries(other)) {
        if (typeof en[id] !== 'string') continue;
        const extra = [...argumentNames(text as string)].filter((name) => !argumentNames(en[id] as string).has(name));
        expect({ id, extra }).toEqual({ id, extra: [] });
      }
    });
  });
});
