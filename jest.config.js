// One `npx jest` runs every package's unit tests; each package keeps its own config.
const os = require('node:os');

module.exports = {
  // Jest's default is one worker fewer than the cores: a single worker on CI's 2 cores, which then
  // sits idle while a test waits on PostgreSQL, PGlite's thread or a child process. At least two
  // (docs/testing.md has the measurements).
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  projects: [
    '<rootDir>/api',
    '<rootDir>/shared-auth',
    '<rootDir>/shared-ui',
    '<rootDir>/shell',
    '<rootDir>/remote-public',
    '<rootDir>/remote-patient',
    '<rootDir>/remote-doctor',
  ],
};
