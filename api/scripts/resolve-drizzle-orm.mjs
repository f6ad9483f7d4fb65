// npm installs drizzle-orm under api/node_modules but may hoist drizzle-kit to the root, where
// drizzle-kit cannot find drizzle-orm. This hook resolves drizzle-orm from the api package for
// both import() (resolve hook below) and require() (NODE_PATH set by the db:generate script).
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
const apiUrl = ${JSON.stringify(pathToFileURL(process.cwd() + '/package.json').href)};
export async function resolve(specifier, context, next) {
  if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
    return next(specifier, { ...context, parentURL: apiUrl });
  }
  return next(specifier, context);
}`),
);
