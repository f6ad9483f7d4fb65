// One `npx jest` runs every package's unit tests; each package keeps its own config.
module.exports = {
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
