/** @type {import('jest').Config} */
module.exports = {
  displayName: 'api',
  // node's, plus a require outside the vm for qrcode (see jest.environment.js)
  testEnvironment: '<rootDir>/jest.environment.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  transform: {
    '[\\\\/]@electric-sql[\\\\/]pglite[\\\\/]dist[\\\\/].+\\.cjs$': '<rootDir>/jest.pglite-transform.js',
    // TypeScript, and the ESM-only packages below (node 20.19+ require()s them, Jest cannot).
    '^.+\\.[jt]sx?$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.jest.json' }],
  },
  // Transformed: PGlite (see jest.pglite-transform.js) and the ESM-only content-disposition
  // (@fastify/static, under swagger-ui), cookie (light-my-request, behind app.inject), and
  // openid-client with its dependencies oauth4webapi and jose (Google sign-in), fhir-kit-client
  // (the FHIR client the FHIR api's tests read it with), and pg-boss with serialize-error,
  // non-error and rrule-temporal (the reminder runner).
  transformIgnorePatterns: [
    '[\\\\/]node_modules[\\\\/](?!(@electric-sql[\\\\/]pglite|content-disposition|cookie|openid-client|oauth4webapi|jose|fhir-kit-client|pg-boss|serialize-error|non-error|rrule-temporal)[\\\\/])',
  ],
  // fhir-kit-client exports only an `import` condition: point Jest at that file (transformed above).
  moduleNameMapper: { '^fhir-kit-client$': '<rootDir>/../node_modules/fhir-kit-client/dist/index.js' },
  // shared-contracts resolves through its package.json `exports`, to its sources: no build needed for tests.
  testEnvironmentOptions: { customExportConditions: ['@careloop/source', 'node', 'node-addons'] },
  // PGlite boots in a few seconds per database; scrypt runs at a low cost in tests (test/helpers.ts).
  testTimeout: 30000,
  setupFilesAfterEnv: ['<rootDir>/jest.setup.js'],
  // Every log line the suite's apps write goes through a PHI detector at the end (src/test/phi-in-logs.ts).
  globalSetup: '<rootDir>/src/test/phi-global-setup.ts',
  globalTeardown: '<rootDir>/src/test/phi-global-teardown.ts',
};
