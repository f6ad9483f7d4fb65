// `node --test scripts/`: the prerendered pages (scripts/prerender.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prerenderedPage } from './prerender.mjs';
import { prerenderedFile } from './web-server.mjs';

const SHELL_PAGE =
  '<!doctype html><html lang=en><head><title>CareLoop</title><script defer src=/main.0123abcd.js></script></head>' +
  '<body><noscript>CareLoop needs JavaScript.</noscript><div id=root></div></body></html>';
const RENDERED = {
  html: '<header>CareLoop</header><h1>Empower Healthcare Decisions</h1>',
  styleTags: '<style data-styled="true">h1{margin:0}</style>',
};

test('puts the markup in a shown #prerendered and hides the empty #root; styles in the head; scripts untouched', () => {
  const page = prerenderedPage(SHELL_PAGE, RENDERED);
  assert.match(page, /<style data-styled="true">h1\{margin:0\}<\/style><\/head>/);
  assert.match(
    page,
    /<div id="prerendered" inert><header>CareLoop<\/header><h1>Empower Healthcare Decisions<\/h1><\/div><div id="root" hidden><\/div>/,
  );
  assert.match(page, /<script defer src=\/main\.0123abcd\.js><\/script>/);
  assert.equal(page.match(/<script/g).length, 1);
});

test('markup with `$` patterns is inserted as it is', () => {
  const page = prerenderedPage(SHELL_PAGE, { html: "<p>$& $' $1</p>", styleTags: '' });
  assert.match(page, /<div id="prerendered" inert><p>\$& \$' \$1<\/p><\/div>/);
});

test('refuses a shell page without an empty #root and markup holding an inline script', () => {
  assert.throws(() => prerenderedPage('<body><div id=app></div></body>', RENDERED), /no empty #root/);
  assert.throws(() => prerenderedPage(SHELL_PAGE, { html: '<script>alert(1)</script>', styleTags: '' }), /inline script/);
});

test('every control of the static copy is disabled: nothing typed into it, no native submit of a password', () => {
  const form =
    '<form><input id="e" type="email" name="email"/><input type="password" name="password"/>' +
    '<select name="s"><option>a</option></select><textarea name="t"></textarea><button type="submit">Log In</button></form>' +
    '<p>an input: <inputs> stays text</p>';
  const page = prerenderedPage(SHELL_PAGE, { html: form, styleTags: '' });
  assert.equal(page.match(/<(input|select|textarea|button) disabled=""/g).length, 5);
  assert.match(page, /<input disabled="" id="e" type="email" name="email"\/>/);
  assert.match(page, /<p>an input: <inputs> stays text<\/p>/);
});

test("a page's copy lives at its path under prerendered/", () => {
  assert.equal(prerenderedFile('/'), 'prerendered/index.html');
  assert.equal(prerenderedFile('/login/patient'), 'prerendered/login/patient.html');
});

test("a signed-in role's app shell is marked with its role (the app keeps it only for that role's session)", () => {
  const page = prerenderedPage(SHELL_PAGE, { ...RENDERED, role: 'patient' });
  assert.match(page, /<div id="prerendered" data-role="patient" inert>/);
  assert.throws(() => prerenderedPage(SHELL_PAGE, { ...RENDERED, role: '"><script>' }), /not a role/);
});
