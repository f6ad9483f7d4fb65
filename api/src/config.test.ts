import path from 'node:path';
import { loadConfig } from './config';

describe('config', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toEqual({
      port: 4000,
      host: '127.0.0.1',
      dataDir: path.resolve(__dirname, '../../data'),
      databaseUrl: undefined,
      webOrigins: ['http://localhost:8080', 'http://localhost:8081', 'http://localhost:8082', 'http://localhost:8083'],
      sessionTtlHours: 12,
      logLevel: 'info',
      passwordHashCost: 17,
      loginRateLimitPerMinute: 20,
      trustProxy: false,
      encryptionKey: undefined,
      webOrigin: 'http://localhost:8080',
      smtpUrl: undefined,
      mailFrom: 'CareLoop <no-reply@careloop.example>',
      google: { issuerUrl: 'https://accounts.google.com', clientId: undefined, clientSecret: undefined },
      apiPublicUrl: 'http://localhost:4000',
    });
  });

  it('reads the environment', () => {
    const c = loadConfig({
      PORT: '5000',
      DATA_DIR: 'rel/dir',
      DATABASE_URL: 'postgres://x@h/db',
      WEB_ORIGINS: ' https://a.example ,https://b.example,',
      SESSION_TTL_HOURS: '1.5',
      PASSWORD_HASH_COST: '12',
      TRUST_PROXY: 'true',
    });
    expect(c.port).toBe(5000);
    expect(c.dataDir).toBe(path.resolve('rel/dir'));
    expect(c.databaseUrl).toBe('postgres://x@h/db');
    expect(c.webOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(c.sessionTtlHours).toBe(1.5);
    expect(c.passwordHashCost).toBe(12);
    expect(c.trustProxy).toBe(true);
    expect(c.apiPublicUrl).toBe('http://localhost:5000'); // follows PORT unless API_PUBLIC_URL is set
  });

  it('reads the mail, encryption and Google settings', () => {
    const c = loadConfig({
      ENCRYPTION_KEY: 'a2V5',
      WEB_ORIGIN: 'https://app.example/',
      SMTP_URL: 'smtp://u:p@mail.example:587',
      MAIL_FROM: 'Care <care@example.org>',
      GOOGLE_ISSUER_URL: 'http://localhost:9000',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      API_PUBLIC_URL: 'https://api.example/',
    });
    expect(c).toMatchObject({
      encryptionKey: 'a2V5',
      webOrigin: 'https://app.example',
      smtpUrl: 'smtp://u:p@mail.example:587',
      mailFrom: 'Care <care@example.org>',
      google: { issuerUrl: 'http://localhost:9000', clientId: 'id', clientSecret: 'secret' },
      apiPublicUrl: 'https://api.example',
    });
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ WEB_ORIGIN: 'not a url' })).toThrow(/WEB_ORIGIN/);
  });

  it('treats empty values as unset and rejects bad ones clearly', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '4' })).toThrow(/PASSWORD_HASH_COST/);
  });
});
