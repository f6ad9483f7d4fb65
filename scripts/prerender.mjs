// After the build: the logged-out first screen of `/` and of the logins, and the app shell of the
// dashboards (frame and loading view), rendered in Node
// (shell/prerender/pages.tsx) into shell/dist/prerendered/, beside the plain shell page (index.html,
// still every other URL's); scripts/web-server.mjs serves them (prerenderedFile). The markup sits in
// #prerendered, visible at once and inert; the app renders into a hidden #root and swaps it in when its
// page is there (shell/src/prerendered.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { prerenderedFile } from './web-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The shell page with the rendered markup: `#prerendered` shown, `#root` hidden until the app takes
 * over. Scripts stay external (the pages' CSP allows no inline script). The copy is inert and its
 * controls disabled: nothing can be typed into a field the app is about to replace, nor a form
 * submitted natively (a login's password would land in the URL); a tap or a test waits for the app's.
 */
export function prerenderedPage(shellPage, { html, styleTags, role = null }) {
  // html-webpack-plugin minifies: `<div id=root></div>`
  const emptyRoot = /<div id="?root"?><\/div>/;
  if (!emptyRoot.test(shellPage)) throw new Error('the shell page has no empty #root');
  if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(html)) throw new Error('the rendered page holds an inline script');
  const disabled = html.replace(/<(input|button|select|textarea)(?=[\s>/])/g, '<$1 disabled=""');
  return shellPage
    .replace('</head>', () => `${styleTags}</head>`)
    .replace(emptyRoot, () => `<div id="prerendered"${roleAttribute(role)} inert>${disabled}</div><div id="root" hidden></div>`);
}

/** A signed-in role's copy says whose it is: the app keeps it only for a session of that role. */
function roleAttribute(role) {
  if (role === null) return '';
  if (!/^[a-z]+$/.test(role)) throw new Error(`not a role: ${role}`);
  return ` data-role="${role}"`;
}

/** Writes a text file with the Brotli and gzip copies web-server.mjs serves. */
function writeServed(path, text) {
  writeFileSync(path, text);
  writeFileSync(`${path}.br`, brotliCompressSync(text));
  writeFileSync(`${path}.gz`, gzipSync(text, { level: 9 }));
}

/** Renders every page of shell/prerender/pages.tsx into shell/dist/prerendered/; returns their paths and sizes. */
export async function prerender() {
  execFileSync(join(root, 'node_modules', '.bin', 'webpack'), ['-c', join(root, 'shell', 'webpack.prerender.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const { renderPages } = createRequire(import.meta.url)(join(root, 'shell', 'prerender-dist', 'pages.cjs'));
  const dist = join(root, 'shell', 'dist');
  const shellPage = readFileSync(join(dist, 'index.html'), 'utf8');
  rmSync(join(dist, 'prerendered'), { recursive: true, force: true });
  const written = [];
  for (const rendered of await renderPages()) {
    const page = prerenderedPage(shellPage, rendered);
    const file = join(dist, prerenderedFile(rendered.path));
    mkdirSync(dirname(file), { recursive: true });
    writeServed(file, page);
    written.push({ path: rendered.path, bytes: Buffer.byteLength(page) });
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(join(root, 'shell', 'dist', 'index.html'))) throw new Error('build the shell first (npm run build)');
  for (const { path, bytes } of await prerender())
    console.log(`prerendered ${path} into shell/dist/${prerenderedFile(path)} (${bytes} bytes)`);
}
