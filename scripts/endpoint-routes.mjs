// Writes shared-contracts/src/endpoint-routes.ts: each endpoint's method, path and what it answers,
// derived from ENDPOINTS, so a page calls the api without building every zod schema of the contract.
// `node --import tsx scripts/endpoint-routes.mjs` (npm run generate:routes); a test fails when it is stale.
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ROUTES_FILE = join(root, 'shared-contracts', 'src', 'endpoint-routes.ts');

/** The file's text for these endpoints (an object keyed by operationId, in ENDPOINTS' order). */
export function routesSource(endpoints) {
  const lines = Object.entries(endpoints).map(([name, e]) => {
    const json = e.response !== null && e.response !== undefined && e.status !== 204;
    return `  ${name}: { method: '${e.method}', path: '${e.path}', status: ${e.status}, json: ${json} },`;
  });
  return [
    '// Generated from ENDPOINTS by scripts/endpoint-routes.mjs (npm run generate:routes): do not edit.',
    "// What a page needs to call an endpoint, without the zod schemas (shared-auth's call()).",
    'export const ENDPOINT_ROUTES = {',
    ...lines,
    '} as const;',
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { ENDPOINTS } = await import(pathToFileURL(join(root, 'shared-contracts', 'src', 'endpoints', 'index.ts')).href);
  writeFileSync(ROUTES_FILE, routesSource(ENDPOINTS));
  console.log(`wrote ${ROUTES_FILE}: ${Object.keys(ENDPOINTS).length} endpoints`);
}
