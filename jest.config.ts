import type { Config } from 'jest';

// One project per package; tests live beside the code they test.
const swc: [string, Record<string, unknown>] = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

// Plain CommonJS (PGlite's build) for the server project: only dynamic import() is rewritten.
const swcCjs: [string, Record<string, unknown>] = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
];

// msw 2 and a few of its dependencies ship ESM only: let swc turn them into CommonJS for Jest.
const esmPackages = [
  'msw',
  '@mswjs',
  '@bundled-es-modules',
  '@open-draft',
  'until-async',
  'rettime',
  'outvariant',
  'strict-event-emitter',
  'headers-polyfill',
  'is-node-process',
  'graphql',
];

const browserProject = (name: string): Config => ({
  displayName: name,
  rootDir: `<rootDir>/${name}`,
  testEnvironment: 'jest-fixed-jsdom',
  testEnvironmentOptions: { customExportConditions: [''] },
  transform: { '^.+\\.(t|j)sx?$': swc, '^.+\\.mjs$': swc },
  transformIgnorePatterns: [`node_modules/(?!(${esmPackages.join('|')})/)`],
  setupFilesAfterEnv: ['<rootDir>/../jest/setup-browser.ts'],
  testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
  moduleNameMapper: { '\\.(css|svg|png)$': '<rootDir>/../jest/file-stub.ts' },
});

const config: Config = {
  reporters: ['default', '<rootDir>/jest/summary-reporter.js'],
  projects: [
    browserProject('shared-ui'),
    browserProject('shared-api'),
    browserProject('booking-remote'),
    browserProject('admin-remote'),
    browserProject('shell'),
    {
      displayName: 'server',
      rootDir: '<rootDir>/server',
      testEnvironment: 'node',
      transform: { '^.+\\.(t|j)sx?$': swc, '^.+\\.cjs$': swcCjs },
      // PGlite's CommonJS build calls import() for Node built-ins, which Jest's VM refuses without
      // --experimental-vm-modules, and a few Fastify dependencies (content-disposition, cookie) are ESM-only: let swc turn both into CommonJS.
      transformIgnorePatterns: ['node_modules/(?!(@electric-sql/pglite|content-disposition|light-my-request|cookie)/)'],
      testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    },
    // The shell's production server (Node, not the browser).
    { displayName: 'shell-server', rootDir: '<rootDir>/shell', testEnvironment: 'node', transform: { '^.+\\.tsx?$': swc }, testMatch: ['<rootDir>/server/**/*.test.ts'] },
    // The repository's own tooling (lint rules).
    { displayName: 'scripts', testEnvironment: 'node', transform: { '^.+\\.ts$': swc }, testMatch: ['<rootDir>/scripts/**/*.test.ts'] },
  ],
};

export default config;
