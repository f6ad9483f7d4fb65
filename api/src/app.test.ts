import type { FastifyInstance } from 'fastify';
import { redactUrl } from './http/redact-url';
import { BACKENDS, createTestApp, createTestDb, signup, type TestApp, type TestDb } from './test/helpers';

describe.each(BACKENDS)('app on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter, { WEB_ORIGINS: 'http://localhost:8080, http://app.example' });
    app = t.app;
  });
  afterAll(async () => {
    await app?.close();
    await tdb?.cleanup();
  });

  it('GET /health checks the database', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown routes with 404 { error }', async () => {
    const res = await app.inject({ method: 'GET', url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found' });
    expect((await app.inject({ method: 'DELETE', url: '/patient/me' })).statusCode).toBe(404);
  });

  it('answers malformed JSON with 400 and writes nothing', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/patient/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "x", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.stringMatching(/JSON/) });
  });

  it('answers bodies over 1 MB with 413', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/patient/signup',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });

  it('answers an unsupported content type with 415, and a text body with 400', async () => {
    const xml = await app.inject({
      method: 'POST',
      url: '/patient/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<email>a</email>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({ error: expect.any(String) });
    const text = await app.inject({
      method: 'POST',
      url: '/patient/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ error: expect.stringMatching(/^body: /) });
  });

  it('serves an OpenAPI document listing the routes', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const role of ['patient', 'doctor']) {
      expect(doc.paths[`/${role}/signup`].post).toBeDefined();
      expect(doc.paths[`/${role}/login`].post).toBeDefined();
      expect(doc.paths[`/${role}/logout`].post).toBeDefined();
      expect(doc.paths[`/${role}/me`].get).toBeDefined();
      expect(doc.paths[`/${role}/me`].patch).toBeDefined();
      expect(doc.paths[`/${role}/qrCode`].get).toBeDefined();
      expect(doc.paths[`/${role}/verifyqrCode`].post).toBeDefined();
      expect(doc.paths[`/${role}/remove2FA`].post).toBeDefined();
      expect(doc.paths[`/${role}/verify2FA`].post).toBeDefined();
      expect(doc.paths[`/${role}/forgot-password`].post).toBeDefined();
      expect(doc.paths[`/${role}/reset-password/{id}/{token}`].post).toBeDefined();
      expect(doc.paths[`/${role}/complete-profile`].post).toBeDefined();
      expect(doc.paths[`/${role}/receivedRequests`].get).toBeDefined();
      expect(doc.paths[`/${role}/sentRequests`].get).toBeDefined();
      expect(doc.paths[`/${role}/responseRequest/{requestId}`].patch).toBeDefined();
    }
    expect(doc.paths['/patient/auth/google'].get).toBeDefined();
    expect(doc.paths['/doctor/requestPatient'].post).toBeDefined();
    expect(doc.paths['/patient/requestDoctor'].post).toBeDefined();
    expect(doc.paths['/patient/auth/google/callback'].get).toBeDefined();
    expect(doc.paths['/health'].get).toBeDefined();
    // request schemas come from the shared contract
    const signupBody = doc.paths['/doctor/signup'].post.requestBody.content['application/json'].schema;
    expect(signupBody.required).toEqual(expect.arrayContaining(['name', 'email', 'password']));
    expect(signupBody.properties.yearsOfExperience).toBeDefined();
  });

  it('serves interactive docs at /docs with their own CSP, and a strict CSP elsewhere', async () => {
    const docs = await app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/html/);
    expect(docs.headers['content-security-policy']).toMatch(/script-src 'self'/);
    const api = await app.inject({ method: 'GET', url: '/health' });
    expect(api.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(api.headers['x-content-type-options']).toBe('nosniff');
  });

  it('allows CORS from a configured origin, with Authorization and PATCH', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/patient/me',
      headers: {
        origin: 'http://app.example',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://app.example');
    expect(String(res.headers['access-control-allow-methods'])).toMatch(/PATCH/);
    expect(String(res.headers['access-control-allow-headers'])).toMatch(/Authorization/i);
  });

  it('gives no CORS grant to another origin', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/health',
      headers: { origin: 'http://evil.example' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('redacts credentials from request URLs before they are logged', () => {
    expect(redactUrl('/patient/reset-password/abc/SECRET')).toBe('/patient/reset-password/abc/[redacted]');
    expect(redactUrl('/doctor/verify-email/SECRET')).toBe('/doctor/verify-email/[redacted]');
    expect(redactUrl('/patient/verify-email/resend')).toBe('/patient/verify-email/resend');
    expect(redactUrl('/patient/auth/google/callback?code=C&state=S&iss=x')).toBe(
      '/patient/auth/google/callback?code=[redacted]&state=[redacted]&iss=x',
    );
    expect(redactUrl('/medicalhistories?page=1&limit=10')).toBe('/medicalhistories?page=1&limit=10');
    expect(redactUrl('/files/a/b.pdf?expires=1&name=x.pdf&sig=abcdef')).toBe(
      '/files/a/b.pdf?expires=1&name=[redacted]&sig=[redacted]',
    );
  });

  it('logs no query value but paging and the like: file names and searches never reach the logs', () => {
    expect(redactUrl('/medical-record/p1?fileType=application%2Fpdf&fileName=Maria%20Lopez%20HIV%20result.pdf')).toBe(
      '/medical-record/p1?fileType=application%2Fpdf&fileName=[redacted]',
    );
    expect(redactUrl('/fhir/R4/Patient?name=Lopez&birthdate=1985-03-12&_count=10')).toBe(
      '/fhir/R4/Patient?name=[redacted]&birthdate=[redacted]&_count=10',
    );
    // a parameter nobody has listed yet is redacted too
    expect(redactUrl('/anything?newThing=secret')).toBe('/anything?newThing=[redacted]');
  });

  it('hides unexpected errors behind 500 { error }', async () => {
    const t2 = await createTestApp(tdb.adapter, {}, (a) => {
      a.get('/boom', async () => {
        throw new Error('secret internals');
      });
    });
    try {
      const res = await t2.app.inject({ method: 'GET', url: '/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'Internal server error' });
      expect(res.body).not.toContain('secret');
    } finally {
      await t2.app.close();
    }
  });

  it('never logs the Authorization header', async () => {
    const lines: string[] = [];
    const t3 = await createTestApp(tdb.adapter, { LOG_LEVEL: 'info' }, undefined, (line) => lines.push(line));
    try {
      const { token } = await signup(t3.app, 'patient');
      await t3.app.inject({ method: 'GET', url: '/patient/me', headers: { authorization: `Bearer ${token}` } });
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n')).not.toContain(token);
    } finally {
      await t3.app.close();
    }
  });

  it('logs no name, e-mail, file name, free text or database error detail, whatever a log call passes', async () => {
    const lines: string[] = [];
    const t5 = await createTestApp(
      tdb.adapter,
      { LOG_LEVEL: 'info' },
      (a) => {
        a.get('/careless-log', async (request) => {
          const err = Object.assign(new Error('duplicate key'), { detail: 'Key (email)=(ada@example.com) already exists.' });
          request.log.warn(
            {
              err,
              email: 'ada@example.com',
              name: 'Ada Lovelace',
              body: { fileName: 'Ada HIV result.pdf', notes: 'Chest pain' },
            },
            'careless',
          );
          return { ok: true };
        });
      },
      (line) => lines.push(line),
    );
    try {
      await t5.app.inject({ method: 'GET', url: '/careless-log' });
      const careless = lines.find((l) => l.includes('"careless"'))!;
      expect(careless).toContain('[redacted]');
      for (const data of ['ada@example.com', 'Ada Lovelace', 'Ada HIV result.pdf', 'Chest pain'])
        expect(careless).not.toContain(data);
      expect(careless).toContain('duplicate key'); // the error itself is still there to debug
    } finally {
      await t5.app.close();
    }
  });

  it("names each request: the caller's plausible X-Request-Id kept, else a new UUID, in the answer and the log", async () => {
    const lines: string[] = [];
    const t4 = await createTestApp(tdb.adapter, { LOG_LEVEL: 'info' }, undefined, (line) => lines.push(line));
    try {
      const fresh = await t4.app.inject({ method: 'GET', url: '/health' });
      const id = String(fresh.headers['x-request-id']);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const again = await t4.app.inject({ method: 'GET', url: '/health' });
      expect(again.headers['x-request-id']).not.toBe(id);
      expect(lines.some((l) => JSON.parse(l).reqId === id)).toBe(true);

      const given = await t4.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'lb-7f3a9c21.eu-west' } });
      expect(given.headers['x-request-id']).toBe('lb-7f3a9c21.eu-west');
      expect(lines.some((l) => JSON.parse(l).reqId === 'lb-7f3a9c21.eu-west')).toBe(true);
      for (const bad of ['short', 'x'.repeat(129), 'has space in it', '<script>alert(1)</script>']) {
        const res = await t4.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': bad } });
        expect(res.headers['x-request-id']).not.toBe(bad);
        expect(String(res.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
      }
    } finally {
      await t4.app.close();
    }
  });
});
