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
      dbMaxQueue: 200,
      webOrigins: ['http://localhost:8080', 'http://localhost:8081', 'http://localhost:8082', 'http://localhost:8083'],
      requireMfaFor: ['doctor'],
      sessionIdleMinutes: 15,
      sessionMaxHours: 12,
      logLevel: 'info',
      passwordHashCost: 17,
      loginRateLimitPerMinute: 20,
      loginSlowdownAfter: 20,
      redisUrl: undefined,
      redisKeyPrefix: 'careloop:rate-limit:',
      trustProxy: false,
      encryptionKey: undefined,
      webOrigin: 'http://localhost:8080',
      smtpUrl: undefined,
      mailFrom: 'CareLoop <no-reply@careloop.example>',
      google: { issuerUrl: 'https://accounts.google.com', clientId: undefined, clientSecret: undefined },
      apiPublicUrl: 'http://localhost:4000',
      clinicTimeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      connectionRequestsPerHour: 20,
      doctorVerification: true,
      files: { signingKey: undefined, maxUploadBytes: 20 * 1024 * 1024, urlTtlSeconds: 15 * 60, s3: undefined },
      shutdownGraceSeconds: 8,
      reminders: { pollSeconds: 2, maxAttempts: 5, leaseMs: 300_000, perDoctorPerHour: 30 },
    });
  });

  it('reads REQUIRE_MFA_FOR: doctors by default, a comma list of roles, or none; refuses unknown roles', () => {
    expect(loadConfig({}).requireMfaFor).toEqual(['doctor']);
    expect(loadConfig({ REQUIRE_MFA_FOR: '' }).requireMfaFor).toEqual(['doctor']);
    expect(loadConfig({ REQUIRE_MFA_FOR: 'none' }).requireMfaFor).toEqual([]);
    expect(loadConfig({ REQUIRE_MFA_FOR: ' doctor , patient,doctor' }).requireMfaFor).toEqual(['doctor', 'patient']);
    expect(loadConfig({ REQUIRE_MFA_FOR: 'patient' }).requireMfaFor).toEqual(['patient']);
    for (const bad of ['admin', 'doctor,nurse', ',', 'all']) {
      expect(() => loadConfig({ REQUIRE_MFA_FOR: bad })).toThrow(/REQUIRE_MFA_FOR/);
    }
  });

  it('reads SHUTDOWN_GRACE_SECONDS (fractions allowed) and refuses bad values', () => {
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '3' }).shutdownGraceSeconds).toBe(3);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '2.5' }).shutdownGraceSeconds).toBe(2.5);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '' }).shutdownGraceSeconds).toBe(8);
    for (const bad of ['0', '-1', '0.1', '601', 'soon', 'Infinity'])
      expect(() => loadConfig({ SHUTDOWN_GRACE_SECONDS: bad })).toThrow(/SHUTDOWN_GRACE_SECONDS/);
  });

  it('reads the shared rate-limit store and the throttles, and refuses a REDIS_URL that is not redis', () => {
    const c = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', LOGIN_SLOWDOWN_AFTER: '7', REMINDERS_PER_DOCTOR_PER_HOUR: '3' });
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.loginSlowdownAfter).toBe(7);
    expect(c.reminders.perDoctorPerHour).toBe(3);
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL: must start with redis:\/\//);
    expect(() => loadConfig({ REMINDERS_PER_DOCTOR_PER_HOUR: '0' })).toThrow(/REMINDERS_PER_DOCTOR_PER_HOUR/);
    expect(() => loadConfig({ DB_MAX_QUEUE: '0' })).toThrow(/DB_MAX_QUEUE/);
    expect(loadConfig({ DB_MAX_QUEUE: '5' }).dbMaxQueue).toBe(5);
  });

  describe('files and reminders', () => {
    const s3 = {
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_BUCKET: 'careloop-files',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };

    it('reads the limits, the TTL, the signing key and the runner settings', () => {
      const key = Buffer.alloc(32, 7).toString('base64');
      const c = loadConfig({
        FILES_SIGNING_KEY: key,
        MAX_UPLOAD_MB: '0.001',
        FILE_URL_TTL_MINUTES: '5',
        REMINDER_POLL_SECONDS: '0.5',
        REMINDER_MAX_ATTEMPTS: '3',
        REMINDER_LEASE_SECONDS: '60',
      });
      expect(c.files).toEqual({ signingKey: key, maxUploadBytes: 1048, urlTtlSeconds: 300, s3: undefined });
      expect(c.reminders).toEqual({ pollSeconds: 0.5, maxAttempts: 3, leaseMs: 60_000, perDoctorPerHour: 30 });
      expect(loadConfig({}).reminders.leaseMs).toBe(300_000);
      expect(() => loadConfig({ REMINDER_LEASE_SECONDS: '4' })).toThrow(/REMINDER_LEASE_SECONDS/);
    });

    it('takes S3 settings all together', () => {
      expect(loadConfig(s3).files.s3).toEqual({ ...s3Config(), endpoint: 'http://127.0.0.1:9000' });
      for (const missing of Object.keys(s3)) {
        const partial: Record<string, string> = { ...s3 };
        delete partial[missing];
        expect(() => loadConfig(partial)).toThrow(/must be set all together/);
      }
      function s3Config() {
        return {
          endpoint: s3.S3_ENDPOINT,
          bucket: s3.S3_BUCKET,
          region: s3.S3_REGION,
          accessKeyId: 'id',
          secretAccessKey: 'secret',
        };
      }
    });

    it.each([
      ['FILES_SIGNING_KEY', Buffer.alloc(16).toString('base64'), /FILES_SIGNING_KEY: must be the base64 of at least 32/],
      ['FILES_SIGNING_KEY', 'not base64!', /FILES_SIGNING_KEY: must be base64/],
      ['MAX_UPLOAD_MB', '0', /MAX_UPLOAD_MB/],
      ['MAX_UPLOAD_MB', 'lots', /MAX_UPLOAD_MB/],
      ['FILE_URL_TTL_MINUTES', '-1', /FILE_URL_TTL_MINUTES/],
      ['REMINDER_POLL_SECONDS', '0.1', /REMINDER_POLL_SECONDS/],
      ['REMINDER_MAX_ATTEMPTS', '0', /REMINDER_MAX_ATTEMPTS/],
      ['REMINDER_MAX_ATTEMPTS', '2.5', /REMINDER_MAX_ATTEMPTS/],
      ['DOCTOR_VERIFICATION', 'no', /DOCTOR_VERIFICATION must be on or off/],
    ])('refuses %s=%s', (name, value, message) => {
      expect(() => loadConfig({ [name]: value })).toThrow(message);
    });

    it('turns the doctor verification rule off only when told', () => {
      expect(loadConfig({ DOCTOR_VERIFICATION: 'off' }).doctorVerification).toBe(false);
      expect(loadConfig({ DOCTOR_VERIFICATION: 'on' }).doctorVerification).toBe(true);
    });

    it('refuses an S3 endpoint that is not an http(s) URL', () => {
      expect(() => loadConfig({ ...s3, S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
    });
  });

  it("reads CLINIC_TIME_ZONE (an IANA name; default the server's) and refuses an unknown zone", () => {
    expect(loadConfig({ CLINIC_TIME_ZONE: 'Australia/Sydney' }).clinicTimeZone).toBe('Australia/Sydney');
    expect(() => loadConfig({ CLINIC_TIME_ZONE: 'Mars/Olympus_Mons' })).toThrow(
      /CLINIC_TIME_ZONE: must be an IANA time zone name/,
    );
    expect(() => loadConfig({ CLINIC_TIME_ZONE: '+11:00 sometimes' })).toThrow(/CLINIC_TIME_ZONE/);
  });

  it('reads the environment', () => {
    const c = loadConfig({
      PORT: '5000',
      DATA_DIR: 'rel/dir',
      DATABASE_URL: 'postgres://x@h/db',
      WEB_ORIGINS: ' https://a.example ,https://b.example,',
      SESSION_MAX_HOURS: '1.5',
      SESSION_IDLE_MINUTES: '5',
      PASSWORD_HASH_COST: '12',
      TRUST_PROXY: '1',
    });
    expect(c.port).toBe(5000);
    expect(c.dataDir).toBe(path.resolve('rel/dir'));
    expect(c.databaseUrl).toBe('postgres://x@h/db');
    expect(c.webOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(c.sessionMaxHours).toBe(1.5);
    expect(c.sessionIdleMinutes).toBe(5);
    expect(c.passwordHashCost).toBe(12);
    expect(c.trustProxy).toBe(1);
    expect(c.apiPublicUrl).toBe('http://localhost:5000'); // follows PORT unless API_PUBLIC_URL is set
  });

  it('TRUST_PROXY: no proxy by default, a hop count or the proxies’ ranges, never "trust everything"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.7 ,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: true would believe every X-Forwarded-For entry/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY: .*CIDR/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '11' })).toThrow(/at most 10 proxy hops/);
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
