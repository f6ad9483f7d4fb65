/**
 * Dependency rules, checked by `npm run lint:deps` (dependency-cruiser 17, runs on Node 20).
 * Type-only imports count (tsPreCompilationDeps: true): they vanish at compile time, but a layer
 * that names another's types depends on it all the same.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles between modules or files: split shared code into a leaf module instead.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-modules',
      severity: 'error',
      scope: 'folder',
      comment: 'No cycles between api modules (folders) either: auth, profiles, records, access, clinical, adapters …',
      from: { path: '^api/src/' },
      to: { circular: true },
    },
    {
      name: 'clinical-is-pure',
      severity: 'error',
      comment: 'api/src/clinical takes values and returns findings: no database, storage, HTTP, Fastify or api modules.',
      from: { path: '^api/src/clinical/' },
      to: {
        path: [
          '^api/src/(db|adapters|modules|access|lib|quality|test)/',
          '^api/src/(app|deps|server|config)\\.ts$',
          '(^|/)node_modules/(fastify|@fastify|fastify-type-provider-zod|drizzle-orm|pg|@electric-sql|pg-boss|@aws-sdk|nodemailer)/',
        ],
      },
    },
    {
      name: 'clinical-no-network',
      severity: 'error',
      comment: 'api/src/clinical makes no network or file-system calls.',
      from: { path: '^api/src/clinical/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(http|https|http2|net|tls|dgram|dns|fs|child_process)$' },
    },
    {
      name: 'fhir-no-database',
      severity: 'error',
      comment:
        'api/src/fhir maps what the access layer returns to FHIR resources: it never reaches the database (its schema, tables or driver), not even for a type.',
      from: { path: '^api/src/fhir/' },
      to: {
        path: ['^api/src/db/', '^api/src/adapters/db\\.ts$', '(^|/)node_modules/(drizzle-orm|pg|@electric-sql)/'],
      },
    },
    {
      name: 'app-is-the-root',
      severity: 'error',
      comment: 'api/src/app.ts builds the app and only server.ts (and tests) import it: the AppDeps type comes from deps.ts.',
      from: { path: '^api/src/', pathNot: '^api/src/server\\.ts$' },
      to: { path: '^api/src/app\\.ts$' },
    },
    {
      name: 'access-layer-through-index',
      severity: 'error',
      comment:
        "Patient data is reached only through the access layer's checked, audited operations: import api/src/access (its index.ts), never a file inside it. Tests may use its internals.",
      from: { path: '^api/src/', pathNot: ['^api/src/access/', '\\.test\\.ts$', '^api/src/test/'] },
      to: { path: '^api/src/access/', pathNot: '^api/src/access/index\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests and their fixtures may reach across modules (setup, internals): the rules are about product code.
    exclude: { path: ['(^|/)(dist|node_modules)/', '\\.test\\.tsx?$', '^api/src/(test|quality)/'] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
