/**
 * Three projects: unit specs next to the code; e2e specs that boot the real AppModule against a
 * real PostgreSQL started once by the global setup (`npm test` runs these two, needing nothing
 * but Node and npm); and browser specs driving Chromium (`npm run test:browser`, needs
 * /usr/bin/chromium). The PgBouncer suite needs Debian's pgbouncer, so it runs only under
 * `npm run test:pgbouncer` (TEST_PGBOUNCER=1), with every other e2e suite behind the pooler.
 * Specs are transpiled only (tsconfig.spec.json); type checking is `npm run typecheck`.
 */
const PGBOUNCER_SUITE = '<rootDir>/test/pgbouncer.e2e-spec.ts';
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: __dirname,
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json' }],
  },
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
  testEnvironment: 'node',
  // Not /tmp/jest_<uid> (jest's default): tests leave nothing behind outside the checkout.
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
};

module.exports = {
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: process.env.TEST_PGBOUNCER === '1' ? [] : [PGBOUNCER_SUITE],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/**/*.browser-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
  ],
};
