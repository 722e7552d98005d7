import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Import boundaries (as bulletproof-react draws them): an app never imports another app (the shell and the remotes meet only
// through module federation at run time), and a feature imports neither another feature nor its remote's app/ or pages/.
const apps = { shell: 'shell', 'booking-remote': 'booking', 'admin-remote': 'admin' };
const featuresOf = (app) => {
  try {
    return readdirSync(new URL(`./${app}/src/features`, import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
};
const otherApps = (app) => {
  const others = Object.keys(apps).filter((name) => name !== app);
  return {
    regex: `^(.*/)?(${others.join('|')})(/|$)|^(${others.map((name) => apps[name]).join('|')})/`,
    message: 'An app never imports another app (the shell and the remotes meet only through module federation).',
  };
};
const featureRules = (app, feature, siblings, layers) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        otherApps(app),
        {
          regex: `^(\\.\\./)+(${layers})(/|$)`,
          message: "A feature does not reach into its remote's app/, pages/ or start-up: pass what it needs in, or move it to lib/.",
        },
        ...(siblings.length > 0
          ? [
              {
                regex: `^(\\.\\./)+(features/)?(${siblings.join('|')})(/|$)`,
                message: 'A feature does not import another feature: compose them in a page, or move what both need to lib/, shared-api or shared-ui.',
              },
            ]
          : []),
      ],
    },
  ],
});
const tests = '**/*.test.{ts,tsx}';
// Redux Toolkit is not a shared module of its own: a value imported from it in an app bundles a second copy (~26 KB gzip).
const reduxThroughSharedApi = {
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      paths: ['@reduxjs/toolkit', '@reduxjs/toolkit/query', '@reduxjs/toolkit/query/react'].map((name) => ({
        name,
        allowTypeImports: true,
        message: 'Use what shared-api exports (api, store, hooks): a value from Redux Toolkit here bundles a second copy of it.',
      })),
    },
  ],
};
const boundaries = Object.keys(apps).flatMap((app) => [
  { files: [`${app}/src/**/*.{ts,tsx}`], ignores: [tests, `${app}/src/test/**`], rules: reduxThroughSharedApi },
  { files: [`${app}/src/**/*.{ts,tsx}`], rules: { 'no-restricted-imports': ['error', { patterns: [otherApps(app)] }] } },
  ...featuresOf(app).flatMap((feature, _, all) => {
    const siblings = all.filter((other) => other !== feature);
    const files = [`${app}/src/features/${feature}/**/*.{ts,tsx}`];
    return [
      { files, ignores: [tests], rules: featureRules(app, feature, siblings, 'app|pages|routes|bootstrap') },
      // A feature's tests may render the page that composes it (the way a parent meets the feature).
      { files: files.map((glob) => glob.replace('*.{ts,tsx}', tests.slice(3))), rules: featureRules(app, feature, siblings, 'app|routes|bootstrap') },
    ];
  }),
]);

// The shell's server is deployed on its own: it takes nothing from the tooling (scripts/), the API, the tests or another app.
const shellServerRules = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        otherApps('shell'),
        {
          regex: '^(\\.\\./)+(scripts|server|e2e|bench)(/|$)',
          message: "The shell's server is deployed on its own: it imports neither the repository's tooling nor the API or the tests.",
        },
      ],
    },
  ],
};
// e2e starts the product through its one helper, which alone knows the start tooling.
const e2eRules = {
  'no-restricted-imports': [
    'error',
    { patterns: [{ regex: '^(\\.\\./)+scripts(/|$)', message: 'e2e starts the product and reads the build through e2e/support/product.ts, not scripts/.' }] },
  ],
};

// The design system knows no data: shared-ui imports nothing from shared-api (shared-api may use shared-ui). The
// contract, which the server imports, takes from shared-ui only its languages, a file that imports nothing: no React
// reaches the server.
const designSystemRules = {
  'no-restricted-imports': [
    'error',
    { patterns: [{ regex: '^shared-api(/|$)', message: 'shared-ui imports nothing from shared-api: take the data as props, or register it from shared-api (loadWithLanguage).' }] },
  ],
};
const contractRules = {
  'no-restricted-imports': [
    'error',
    { patterns: [{ regex: '^shared-ui(?!/languages$)(/|$)', message: "The contract is the server's too: from shared-ui it takes only shared-ui/languages (no React on the server)." }] },
  ],
};
const languagesRules = {
  'no-restricted-imports': ['error', { patterns: [{ regex: '.', message: "shared-ui/languages reaches the server through the contract: it imports nothing." }] }],
};

// The server's house: a base that imports no domain, then domains that each import only the base and the domains listed
// before them, so no two folders import each other; app.ts, main.ts and the other files at server/src compose them.
const serverLayers = ['base', 'limits', 'audit', 'mail', 'whatsapp', 'auth', 'slots', 'checkout', 'bookings', 'payments', 'documents', 'manage', 'visit-day', 'waitlist', 'whatsapp-replies', 'calendar', 'privacy', 'insights', 'ops'];
const serverRoot = ['app', 'main', 'config', 'migrate', 'seed', 'schema', 'startup-checks', 'database-plugin'];
// A domain's index.ts is its only surface: another domain (or the root) never reaches into its files.
const serverDomains = serverLayers.slice(1);
const throughIndex = (up, others) => ({
  regex: `^${up}(${others.join('|')})/`,
  message: "Import another server domain through its index.ts (its public surface: '../payments', not '../payments/state'); export from there what it should offer.",
});
// One rule per depth below server/src/<layer>/, so '../config' in payments/gateways/ (payments' own) is not the root's.
const serverHouse = serverLayers.flatMap((layer, i) =>
  [1, 2, 3].map((depth) => {
    const up = '\\.\\./'.repeat(depth);
    const above = serverLayers.slice(i + 1);
    return {
      files: [`server/src/${layer}/${'*/'.repeat(depth - 1)}*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...(above.length > 0
                ? [
                    {
                      regex: `^${up}(${above.join('|')})(/|$)`,
                      message: `server/src/${layer} imports only ${['the base', ...serverLayers.slice(1, i)].join(', ')}: move what both need down a layer, or compose them in app.ts.`,
                    },
                  ]
                : []),
              {
                regex: `^${up}(${serverRoot.join('|')})$`,
                message: 'A server domain does not import the composition root (app, main, config, ...): take what it needs as an argument.',
              },
              throughIndex(up, serverDomains.filter((domain) => domain !== layer)),
            ],
          },
        ],
      },
    };
  }),
);
// The root composes the domains through their indexes too; schema.ts lists every domain's tables.ts by design.
const serverRootRules = { 'no-restricted-imports': ['error', { patterns: [throughIndex('\\./', serverDomains)] }] };

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '**/.data/**', 'coverage/**', '.e2e-tmp/**', 'bench/.out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...boundaries,
  ...serverHouse,
  { files: ['server/src/*.ts'], ignores: ['server/src/schema.ts'], rules: serverRootRules },
  { files: ['shared-ui/src/**/*.{ts,tsx}'], rules: designSystemRules },
  { files: ['shared-ui/src/i18n/languages.ts'], rules: languagesRules },
  { files: ['shared-api/src/contract/**/*.ts'], rules: contractRules },
  { files: ['shell/server/**/*.ts'], rules: shellServerRules },
  { files: ['e2e/**/*.ts'], ignores: ['e2e/support/product.ts'], rules: e2eRules },
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: { ...globals.node } } },
  // Files a page loads as they are (no build): the browser's globals.
  { files: ['*/public/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  // CommonJS tooling (Jest's reporter, rspack's catalogue loader) requires its dependencies.
  { files: ['jest/**/*.js', 'scripts/**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
