import type { Config } from 'jest';

// Browser tests against the production bundles and the real API (see e2e/support). Run with --runInBand.
const config: Config = {
  displayName: 'e2e',
  rootDir: '..',
  testEnvironment: 'node',
  reporters: ['default', '<rootDir>/jest/summary-reporter.js'],
  testMatch: ['<rootDir>/e2e/**/*.e2e.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  // A cold build of the three bundles plus the API start-up can take a few minutes on 2 cores.
  testTimeout: 180_000,
  maxWorkers: 1,
};

export default config;
