// Shared Jest settings for the browser packages (jsdom + ts-jest).
const path = require('path');
module.exports = (dir) => ({
  displayName: path.basename(dir),
  rootDir: dir,
  testEnvironment: path.join(__dirname, 'jest.web.env.js'),
  // Workspace packages resolve through their package.json `exports`, to their sources (webpack.common.ts).
  testEnvironmentOptions: { customExportConditions: ['@careloop/source', 'browser'] },
  setupFilesAfterEnv: [path.join(__dirname, 'jest.web.setup.js')],
  transform: {
    '^.+\\.[tj]sx?$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.jest.json') }],
  },
  // ky is ESM-only: let ts-jest turn it into CommonJS.
  transformIgnorePatterns: ['/node_modules/(?!ky/)'],
  moduleNameMapper: {
    '\\.(png|jpe?g|svg|webp)$': path.join(__dirname, 'jest.asset.js'),
  },
  testMatch: ['<rootDir>/src/**/*.test.ts?(x)'],
});
