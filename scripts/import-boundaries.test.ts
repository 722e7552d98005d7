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
      'shell/server/K.ts': use('../../scripts/bundles'),
      'shell/server/L.ts': use('../../booking-remote/src/routes'),
      'shell/server/M.ts': use('../src/app/remoteForPath'),
      'e2e/journeys/N.e2e.test.ts': use('../../scripts/product'),
      'e2e/support/O.ts': use('../../scripts/bundles'),
      'e2e/support/product.ts': use('../../scripts/product'),
      'e2e/journeys/P.e2e.test.ts': use('../support/product'),
      'server/src/base/Q.ts': use('../payments'),
      'server/src/base/db/R.ts': use('../../slots'),
      'server/src/mail/S.ts': use('../payments'),
      'server/src/payments/T.ts': use('../mail'),
      'server/src/payments/gateways/U.ts': use('../config'),
      'server/src/payments/gateways/V.ts': use('../../manage'),
      'server/src/slots/W.ts': use('../config'),
      'server/src/manage/WL.ts': use('../waitlist'),
      'server/src/waitlist/WM.ts': use('../manage'),
      'server/src/app-X.ts': use('./payments'),
      'server/src/payments/TI.ts': use('../mail/outbox'),
      'server/src/payments/gateways/TJ.ts': use('../../checkout/hold-rows'),
      'server/src/waitlist/TK.ts': use('../slots/tables'),
      'server/src/app-TL.ts': use('./payments/routes'),
      'server/src/schema.ts': use('./payments/tables'),
      'server/src/payments/TM.ts': use('./initiate'),
      'shared-ui/src/i18n/Y1.ts': use('shared-api'),
      'shared-ui/src/components/Y2.test.tsx': use('shared-api/contract'),
      'shared-ui/src/i18n/languages.ts': use('./catalog'),
      'shared-api/src/contract/Z1.ts': use('shared-ui'),
      'shared-api/src/contract/Z2.ts': use('shared-ui/forms'),
      'shared-api/src/contract/Z3.ts': use('shared-ui/languages'),
      'shared-api/src/Z4.ts': use('shared-ui'),
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

  it("refuses the shell's server importing tooling or another app: it is deployed on its own", () => {
    expect(errors['shell/server/K.ts']).toEqual([expect.stringContaining("The shell's server is deployed on its own")]);
    expect(errors['shell/server/L.ts']).toEqual([expect.stringContaining('An app never imports another app')]);
    expect(errors['shell/server/M.ts']).toEqual([]);
  });

  it('refuses e2e files reaching into scripts/, except the one helper that starts the product', () => {
    for (const file of ['e2e/journeys/N.e2e.test.ts', 'e2e/support/O.ts']) expect(errors[file]).toEqual([expect.stringContaining('e2e/support/product.ts')]);
    expect(errors['e2e/support/product.ts']).toEqual([]);
    expect(errors['e2e/journeys/P.e2e.test.ts']).toEqual([]);
  });

  it("refuses a server folder importing one above it or the composition root: the base imports no domain, no two domains import each other", () => {
    for (const file of ['server/src/base/Q.ts', 'server/src/base/db/R.ts', 'server/src/mail/S.ts', 'server/src/payments/gateways/V.ts', 'server/src/manage/WL.ts'])
      expect(errors[file]).toEqual([expect.stringContaining('move what both need down a layer')]);
    expect(errors['server/src/slots/W.ts']).toEqual([expect.stringContaining('does not import the composition root')]);
  });

  it("allows a server domain the layers below it, its own folder, and the root composing every domain", () => {
    for (const file of ['server/src/payments/T.ts', 'server/src/payments/gateways/U.ts', 'server/src/waitlist/WM.ts', 'server/src/app-X.ts', 'server/src/payments/TM.ts'])
      expect(errors[file]).toEqual([]);
  });

  it("refuses reaching into another server domain's files, tables included: only its index.ts (schema.ts lists the tables)", () => {
    for (const file of ['server/src/payments/TI.ts', 'server/src/payments/gateways/TJ.ts', 'server/src/waitlist/TK.ts', 'server/src/app-TL.ts'])
      expect(errors[file]).toEqual([expect.stringContaining('through its index.ts')]);
    expect(errors['server/src/schema.ts']).toEqual([]);
  });

  it("allows pages composing features, a feature's own files and lib/, and a feature's test rendering its page", () => {
    for (const file of ['G.tsx', 'H.tsx', 'I.tsx', 'J.test.tsx'])
      expect(Object.entries(errors).find(([name]) => name.endsWith(`/${file}`))?.[1]).toEqual([]);
  });

  it('refuses shared-ui importing shared-api, tests included: the design system knows no data', () => {
    for (const file of ['shared-ui/src/i18n/Y1.ts', 'shared-ui/src/components/Y2.test.tsx'])
      expect(errors[file]).toEqual([expect.stringContaining('shared-ui imports nothing from shared-api')]);
  });

  it('keeps React out of the server: the contract takes only shared-ui/languages, which imports nothing', () => {
    for (const file of ['shared-api/src/contract/Z1.ts', 'shared-api/src/contract/Z2.ts'])
      expect(errors[file]).toEqual([expect.stringContaining("The contract is the server's too")]);
    expect(errors['shared-ui/src/i18n/languages.ts']).toEqual([expect.stringContaining('it imports nothing')]);
    expect(errors['shared-api/src/contract/Z3.ts']).toEqual([]);
    expect(errors['shared-api/src/Z4.ts']).toEqual([]);
  });
});
