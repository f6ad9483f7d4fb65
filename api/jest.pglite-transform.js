// Jest runs modules in a vm without dynamic import() (unless node gets --experimental-vm-modules),
// and PGlite's CommonJS build loads Node built-ins with `await import("fs")` etc.
// (electric-sql/pglite#224). Rewrite exactly those built-in imports to require(); nothing else.
const crypto = require('node:crypto');

const BUILTIN_IMPORT =
  /(?<![\w$.])import\((["'])((?:node:)?(?:fs|fs\/promises|module|stream|stream\/promises|util|zlib|path|url|crypto))\1\)/g;

module.exports = {
  process(source) {
    // Emscripten code declares its own `var require` in places, so keep a handle on Jest's.
    const rewritten = source.replace(
      BUILTIN_IMPORT,
      (_m, q, name) => `Promise.resolve().then(() => { const m = __jestRequire(${q}${name}${q}); return { ...m, default: m }; })`,
    );
    return { code: `var __jestRequire = require;${rewritten}` };
  },
  getCacheKey(source, filename) {
    return crypto.createHash('sha256').update('pglite-import-rewrite-v2').update(filename).update(source).digest('hex');
  },
};
