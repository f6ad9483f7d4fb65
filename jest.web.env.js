// jsdom, plus Node's own fetch, so the real ky client can talk to a real local HTTP server in tests.
const { TestEnvironment } = require('jest-environment-jsdom');

module.exports = class WebTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const {
      fetch,
      Request,
      Response,
      Headers,
      FormData,
      AbortController,
      AbortSignal,
      ReadableStream,
      TextEncoder,
      TextDecoder,
      structuredClone,
    } = globalThis;
    Object.assign(this.global, {
      fetch,
      Request,
      Response,
      Headers,
      FormData,
      AbortController,
      AbortSignal,
      ReadableStream,
      TextEncoder,
      TextDecoder,
      structuredClone,
    });
  }
};
