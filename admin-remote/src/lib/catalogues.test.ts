import fs from 'node:fs';
import path from 'node:path';
import { defineCatalog } from 'shared-ui';
import { translator } from './i18n';

// Every staff-side catalogue: features/<feature>/locales/en.json and pages/locales/en.json.
const src = path.resolve(__dirname, '..');
const catalogues = [
  ...fs.readdirSync(path.join(src, 'features')).map((feature) => path.join(src, 'features', feature)),
  path.join(src, 'pages'),
].filter((dir) => fs.existsSync(path.join(dir, 'locales', 'en.json')));

const read = (dir: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(dir, 'locales', 'en.json'), 'utf8'));

/** A value for every argument a text names ({name}, {count, plural, ...}). */
const sampleValues = (text: string) => Object.fromEntries([...text.matchAll(/\{\s*(\w+)/g)].map(([, name]) => [name, 2]));

describe("the staff side's catalogues", () => {
  it('exist for every feature with words and for the pages, each under its own admin.* name', () => {
    const names = catalogues.map((dir) => /defineCatalog\('([^']+)'/.exec(fs.readFileSync(path.join(dir, 'i18n.ts'), 'utf8'))?.[1]);
    expect(names).toEqual(
      expect.arrayContaining(['admin.auth', 'admin.dashboard', 'admin.create-slots', 'admin.audit', 'admin.colleagues', 'admin.calendar-feed', 'admin.alerts', 'admin.pages']),
    );
    expect(names.every((name) => name?.startsWith('admin.'))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(catalogues.map((dir) => [path.relative(src, dir), dir]))(
    '%s: a text without placeholders reads exactly as written, and every placeholder is filled',
    (feature, dir) => {
      const messages = read(dir);
      const t = translator(defineCatalog(`admin.test.${feature}`, messages, {}));
      for (const [id, text] of Object.entries(messages)) {
        // An apostrophe must not be taken for ICU quoting: "Today's Slots" stays as it is.
        if (!/[{}]/.test(text)) expect([id, t(id)]).toEqual([id, text]);
        else expect([id, t(id, sampleValues(text))]).toEqual([id, expect.not.stringMatching(/[{}]/)]);
      }
    },
  );
});
