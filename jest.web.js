// Shared Jest settings for the browser packages (jsdom + ts-jest).
const path = require('path');
module.exports = (dir) => ({
  displayName: path.basename(dir),
  rootDir: dir,
  testEnvironment: path.join(__dirname, 'jest.web.env.js'),
  setupFilesAfterEnv: ['@testing-library/jest-dom'],
  transform: {
    '^.+\\.[tj]sx?$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.jest.json') }],
  },
  // ky is ESM-only: let ts-jest turn it into CommonJS.
  transformIgnorePatterns: ['/node_modules/(?!ky/)'],
  moduleNameMapper: {
    '^shared-contracts$': path.join(__dirname, 'shared-contracts/src'),
    '\\.(png|jpe?g|svg|webp)$': path.join(__dirname, 'jest.asset.js'),
  },
  testMatch: ['<rootDir>/src/**/*.test.ts?(x)'],
});
