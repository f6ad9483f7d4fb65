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
  });

  it('treats empty values as unset and rejects bad ones clearly', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '4' })).toThrow(/PASSWORD_HASH_COST/);
  });
});
