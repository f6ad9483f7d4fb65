// `testTimeout` in jest.config.js is a global option: Jest ignores it when this config runs as one
// of the root config's projects (`npx jest` from the repository root), leaving 5 s, which PGlite's
// start-up can exceed on a busy machine. Setting it here applies in both ways of running.
jest.setTimeout(120_000);
// The AWS SDK warns once per process that its 2027 releases will need Node 22 (noted in STACK.md).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Pure libraries with hot loops run outside the vm context (jest.environment.js): the same packages
// and versions, loaded by node's own require. qrcode's PNG encoder (every two-factor set-up) runs
// about 30× faster there, zxcvbn's matching (every password set) about 1.5×.
for (const pkg of ['qrcode', '@zxcvbn-ts/core', '@zxcvbn-ts/language-common', '@zxcvbn-ts/language-en'])
  jest.mock(pkg, () => globalThis.__requireOutsideVm(pkg));
