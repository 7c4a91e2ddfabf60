/**
 * Three projects: unit specs next to the code; e2e specs that boot the real AppModule against a
 * real PostgreSQL started once by the global setup (`npm test` runs these two); and a browser
 * spec driving Swagger UI in Chromium (`npm run test:browser`, needs /usr/bin/chromium).
 * Specs are transpiled only (tsconfig.spec.json); type checking is `npm run typecheck`.
 */
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
