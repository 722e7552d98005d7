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

// ---- Chinese punctuation (issue 24): Chinese text takes the full-width marks (，。：；！？（）), as docs/I18N.md says. ----

/** Han characters and the CJK and full-width punctuation blocks. */
const CHINESE = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;
/** The ASCII marks Chinese writes full-width. */
const HALF_WIDTH_MARK = /[?!:,;.()]/;
const LATIN = /[A-Za-z0-9]/;

/**
 * The ASCII marks a Chinese text uses where Chinese writes a full-width one: a mark beside a Chinese character or a
 * placeholder (which is filled with Chinese words: a date, a school's name), spaces between them ignored. Marks inside
 * Latin text stay as they are: a time (上午9:30), an amount (RM75.50), a URL or a file name (.ics).
 */
function halfWidthMarksInChinese(text: string): string[] {
  // The message as characters, each placeholder (plural and select arguments too) as null.
  const sequence: (string | null)[] = [];
  const walk = (tokens: Token[]): void => {
    for (const token of tokens) {
      if (token.type === 'content') sequence.push(...token.value);
      else {
        sequence.push(null);
        if ('cases' in token) token.cases.forEach((c) => walk(c.tokens));
        sequence.push(null);
      }
    }
  };
  walk(parse(text));
  const found: string[] = [];
  sequence.forEach((mark, i) => {
    if (mark === null || !HALF_WIDTH_MARK.test(mark)) return;
    let before = i - 1;
    while (sequence[before] === ' ') before -= 1;
    let after = i + 1;
    while (sequence[after] === ' ') after += 1;
    const [previous, next] = [sequence[before], sequence[after]];
    if (typeof previous === 'string' && typeof next === 'string' && LATIN.test(previous) && LATIN.test(next)) return;
    // A file name's or a domain's dot: ".ics".
    if (mark === '.' && typeof next === 'string' && LATIN.test(next) && sequence[i + 1] === next) return;
    const chineseOrPlaceholder = (c: string | null | undefined) => c === null || (c !== undefined && CHINESE.test(c));
    if (chineseOrPlaceholder(previous) || chineseOrPlaceholder(next)) found.push(`${mark} in "${text}"`);
  });
  return found;
}

describe('Chinese punctuation', () => {
  it('finds the half-width marks Chinese writes full-width, and leaves times, amounts, URLs and file names', () => {
    expect(halfWidthMarksInChinese('取消此预约?')).toEqual(['? in "取消此预约?"']);
    expect(halfWidthMarksInChinese('日期: {date}, {time}')).toEqual([': in "日期: {date}, {time}"', ', in "日期: {date}, {time}"']);
    expect(halfWidthMarksInChinese('{count, plural, other {余#个!}}')).toEqual(['! in "{count, plural, other {余#个!}}"']);
    expect(halfWidthMarksInChinese('入学评估(GMT+8)')).toEqual(['( in "入学评估(GMT+8)"']);
    expect(halfWidthMarksInChinese('取消此预约？')).toEqual([]);
    expect(halfWidthMarksInChinese('上午9:30，RM75.50，详见 https://example.my/a?b=1，下载 .ics 文件')).toEqual([]);
  });

  it.each(folders.filter((folder) => fs.existsSync(path.join(folder, 'zh.json'))).map((folder) => [rel(folder), folder]))(
    '%s/zh.json writes them full-width',
    (_name, folder) => {
      const zh = read(path.join(folder, 'zh.json')) as Record<string, string>;
      expect(Object.entries(zh).flatMap(([id, text]) => halfWidthMarksInChinese(text).map((found) => `${id}: ${found}`))).toEqual([]);
    },
  );
});

// ---- Money (issue 24): one form per language, and only formatRM writes it ----
describe('amounts in the catalogues', () => {
  it('are never written by hand ("RM {amount}", "RM75"): each comes whole from formatRM, in its language\'s form', () => {
    const handWritten = /RM\s?(\{|\d)/;
    const found = folders.flatMap((folder) =>
      fs
        .readdirSync(folder)
        .filter((file) => file.endsWith('.json'))
        .flatMap((file) =>
          Object.entries(read(path.join(folder, file)))
            .filter(([, text]) => handWritten.test(String(text)))
            .map(([id]) => `${rel(folder)}/${file}: ${id}`),
        ),
    );
    expect(found).toEqual([]);
  });
});
