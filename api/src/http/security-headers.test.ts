import Fastify from 'fastify';
import { addSecurityHeaders, securityHeaders } from './security-headers';

const STRICT = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
} as const;

describe('security headers computed once from helmet', () => {
  it("are helmet's own headers for the options", () => {
    const headers = securityHeaders(STRICT);
    expect(headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-powered-by']).toBeUndefined();
  });

  it('refuse a per-request directive (a nonce), which cannot be computed once', () => {
    expect(() => securityHeaders({ contentSecurityPolicy: { directives: { scriptSrc: [() => "'nonce-abc'"] } } })).toThrow(
      /per-request/,
    );
  });

  it('go on every answer, errors included, and a route may set its own value of one', async () => {
    const app = Fastify();
    addSecurityHeaders(app, STRICT);
    app.get('/plain', async () => ({ ok: true }));
    app.get('/own', async (_request, reply) => {
      reply.header('content-security-policy', "default-src 'self'");
      return 'page';
    });
    app.get('/fails', async () => {
      throw new Error('boom');
    });
    try {
      for (const url of ['/plain', '/fails', '/nowhere']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
      const own = await app.inject({ method: 'GET', url: '/own' });
      expect(own.headers['content-security-policy']).toBe("default-src 'self'");
      expect(own.headers['x-frame-options']).toBe('SAMEORIGIN');
    } finally {
      await app.close();
    }
  });
});
