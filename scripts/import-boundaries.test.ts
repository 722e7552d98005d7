import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

/** Lints each snippet as the file named, with the repository's ESLint config; answers the no-restricted-imports messages per file. */
function boundaryErrors(files: Record<string, string>): Record<string, string[]> {
  const script = `
    import { ESLint } from 'eslint';
    const eslint = new ESLint({ cwd: process.cwd() });
    const files = JSON.parse(process.argv[1]);
    const out = {};
    for (const [filePath, code] of Object.entries(files)) {
      const [result] = await eslint.lintText(code, { filePath });
      out[filePath] = result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
    }
    process.stdout.write(JSON.stringify(out));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(files)], { cwd: root, encoding: 'utf8' });
  return JSON.parse(stdout);
}

describe('import boundaries (eslint.config.mjs)', () => {
  const use = (from: string) => `import { thing } from '${from}';\nexport const used = thing;\n`;
  let errors: Record<string, string[]>;

  beforeAll(() => {
    errors = boundaryErrors({
      'booking-remote/src/features/timetable/components/A.tsx': use('../../booking-dialog'),
      'booking-remote/src/features/booking-dialog/components/B.tsx': use('../../../app/api/paymentStatusApi'),
      'booking-remote/src/features/booking-dialog/components/C.tsx': use('../../../pages/HomePage'),
      'admin-remote/src/pages/D.tsx': use('../../../booking-remote/src/routes'),
      'booking-remote/src/pages/E.tsx': use('admin/routes'),
      'shell/src/app/F.tsx': use('booking-remote/src/features/timetable'),
      'booking-remote/src/pages/G.tsx': use('../features/booking-dialog'),
      'booking-remote/src/features/booking-dialog/components/H.tsx': use('../utils/reservation'),
      'booking-remote/src/features/booking-dialog/components/I.tsx': use('../../../lib/paymentStatusApi'),
      'booking-remote/src/features/booking-dialog/components/J.test.tsx': use('../../../pages/HomePage'),
    });
  }, 60_000);

  it('refuses a feature importing another feature', () => {
    expect(errors['booking-remote/src/features/timetable/components/A.tsx']).toEqual([expect.stringContaining('A feature does not import another feature')]);
  });

  it("refuses a feature reaching into its remote's app/ or pages/", () => {
    expect(errors['booking-remote/src/features/booking-dialog/components/B.tsx']).toEqual([expect.stringContaining("its remote's app/")]);
    expect(errors['booking-remote/src/features/booking-dialog/components/C.tsx']).toEqual([expect.stringContaining("its remote's app/")]);
  });

  it('refuses an app importing another app, by path, package or federation name', () => {
    for (const file of ['admin-remote/src/pages/D.tsx', 'booking-remote/src/pages/E.tsx', 'shell/src/app/F.tsx'])
      expect(errors[file]).toEqual([expect.stringContaining('An app never imports another app')]);
  });

  it("allows pages composing features, a feature's own files and lib/, and a feature's test rendering its page", () => {
    for (const file of ['G.tsx', 'H.tsx', 'I.tsx', 'J.test.tsx'])
      expect(Object.entries(errors).find(([name]) => name.endsWith(`/${file}`))?.[1]).toEqual([]);
  });
});
