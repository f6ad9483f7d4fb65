// After the build: the logged-out first screen of `/` rendered in Node (shell/prerender/landing.tsx)
// into shell/dist/landing.html, beside the plain shell page (index.html, still every deep link's).
// scripts/web-server.mjs serves landing.html for `/`. The markup sits in #prerendered, visible at once;
// the app renders into a hidden #root and swaps it in when its page is there (shell/src/prerendered.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The shell page with the rendered markup and its styles: `#prerendered` shown, `#root` hidden
 * until the app takes over. Scripts stay external (the pages' CSP allows no inline script).
 */
export function landingPage(shellPage, { html, styleTags }) {
  // html-webpack-plugin minifies: `<div id=root></div>`
  const emptyRoot = /<div id="?root"?><\/div>/;
  if (!emptyRoot.test(shellPage)) throw new Error('the shell page has no empty #root');
  if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(html)) throw new Error('the rendered landing holds an inline script');
  return shellPage
    .replace('</head>', () => `${styleTags}</head>`)
    .replace(emptyRoot, () => `<div id="prerendered" inert>${html}</div><div id="root" hidden></div>`);
}

/** Writes a text file with the Brotli and gzip copies web-server.mjs serves. */
function writeServed(path, text) {
  writeFileSync(path, text);
  writeFileSync(`${path}.br`, brotliCompressSync(text));
  writeFileSync(`${path}.gz`, gzipSync(text, { level: 9 }));
}

export function prerender() {
  execFileSync(join(root, 'node_modules', '.bin', 'webpack'), ['-c', join(root, 'shell', 'webpack.prerender.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const bundle = join(root, 'shell', 'prerender-dist', 'landing.cjs');
  const { renderLanding } = createRequire(import.meta.url)(bundle);
  const shellPage = readFileSync(join(root, 'shell', 'dist', 'index.html'), 'utf8');
  const page = landingPage(shellPage, renderLanding());
  writeServed(join(root, 'shell', 'dist', 'landing.html'), page);
  return page;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(join(root, 'shell', 'dist', 'index.html'))) throw new Error('build the shell first (npm run build)');
  const page = prerender();
  console.log(`prerendered / into shell/dist/landing.html (${Buffer.byteLength(page)} bytes)`);
}
