/** @type {import('jest').Config} */
module.exports = {
  displayName: 'api',
  testEnvironment: 'node',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  transform: {
    '[\\\\/]@electric-sql[\\\\/]pglite[\\\\/]dist[\\\\/].+\\.cjs$': '<rootDir>/jest.pglite-transform.js',
    // TypeScript, and the ESM-only packages below (node 20.19+ require()s them, Jest cannot).
    '^.+\\.[jt]sx?$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.jest.json' }],
  },
  // Transformed: PGlite (see jest.pglite-transform.js) and the ESM-only content-disposition
  // (@fastify/static, under swagger-ui) and cookie (light-my-request, behind app.inject).
  transformIgnorePatterns: ['[\\\\/]node_modules[\\\\/](?!(@electric-sql[\\\\/]pglite|content-disposition|cookie)[\\\\/])'],
  moduleNameMapper: { '^shared-contracts$': '<rootDir>/../shared-contracts/src' },
  // PGlite boots in a few seconds per database; scrypt runs at a low cost in tests (test/helpers.ts).
  testTimeout: 30000,
};
