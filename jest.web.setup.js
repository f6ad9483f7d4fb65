// Web tests talk to a real local HTTP server while the api suites load the same cores: the
// testing-library default of 1 s for findBy/waitFor failed a CI run on a busy machine (the answer
// came, later). A real failure still fails, after 5 s.
require('@testing-library/jest-dom');
const { configure } = require('@testing-library/react');

configure({ asyncUtilTimeout: 5000 });
