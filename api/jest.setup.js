// `testTimeout` in jest.config.js is a global option: Jest ignores it when this config runs as one
// of the root config's projects (`npx jest` from the repository root), leaving 5 s, which PGlite's
// start-up can exceed on a busy machine. Setting it here applies in both ways of running.
jest.setTimeout(120_000);
// The AWS SDK warns once per process that its 2027 releases will need Node 22 (noted in STACK.md).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// qrcode (two-factor setup) runs outside the vm context: its PNG encoder is 30× faster there
// (jest.environment.js). The same package and version, loaded by node's own require.
jest.mock('qrcode', () => globalThis.__requireOutsideVm('qrcode'));
