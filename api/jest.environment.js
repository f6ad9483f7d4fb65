// Jest's node environment, plus a way to load a package outside the test's vm context.
// A global (Math, …) read inside a vm context goes through the context's interceptor: a hot loop
// over them runs about 100× slower than in plain node. qrcode's PNG encoder (pngjs) is such a loop
// — about 290 ms per two-factor setup here against 10 ms — and every doctor's signup enrols
// two-factor. jest.setup.js loads it through this require instead: the same library, run by node.
const { TestEnvironment } = require('jest-environment-node');

module.exports = class CareLoopNodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.__requireOutsideVm = require;
  }
};
