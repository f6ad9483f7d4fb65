import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { ROLES, type Role } from '@careloop/shared-contracts';
import { z } from 'zod';

// Resolves the same from src/ (tests, ts-jest) and dist/ (node): both sit one level below api/.
export const REPO_ROOT = path.resolve(__dirname, '../..');
export const MIGRATIONS_DIR = path.resolve(__dirname, '../drizzle');

const DEFAULT_WEB_ORIGINS = 'http://localhost:8080,http://localhost:8081,http://localhost:8082,http://localhost:8083';

/** An IANA zone name Intl knows ("Australia/Sydney", "UTC"). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
const serverTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** false, a number of proxy hops, or the proxies' addresses and CIDR ranges (proxy-addr's names allowed). */
export type TrustProxy = false | number | string[];

export const MAX_PROXY_HOPS = 10;

/** TRUST_PROXY's value, or the reason it is refused. */
export function parseTrustProxy(value: string): TrustProxy | string {
  const v = value.trim();
  if (v === 'false' || v === '0') return false;
  if (v === 'true') {
    return 'true would believe every X-Forwarded-For entry, which any client can write: give the number of proxies in front of the api (e.g. 1) or their addresses or CIDR ranges';
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return hops <= MAX_PROXY_HOPS ? hops : `at most ${MAX_PROXY_HOPS} proxy hops`;
  }
  const ranges = v
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(ranges); // throws on an address or range it cannot read
  } catch (err) {
    return `${(err as Error).message}: give a number of hops, or addresses / CIDR ranges separated by commas`;
  }
  return ranges;
}

/** REQUIRE_MFA_FOR's roles (`none`: no role), or the reason it is refused. */
export function parseRequireMfaFor(value: string): Role[] | string {
  const v = value.trim().toLowerCase();
  if (v === 'none') return [];
  const names = v
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(ROLES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    return `${unknown.length ? `unknown role ${unknown.join(', ')}: ` : ''}give roles separated by commas (${ROLES.join(', ')}) or none`;
  }
  return [...new Set(names)] as Role[];
}

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const MIN_SIGNING_KEY_BYTES = 32;
const S3_VARS = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

const Env = z
  .object({
    PORT: int(0, 65535).default(4000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).optional(),
    DB_MAX_QUEUE: z.coerce.number().int().min(1).max(100_000).default(200),
    DATABASE_URL: z.string().min(1).optional(),
    WEB_ORIGINS: z.string().default(DEFAULT_WEB_ORIGINS),
    SESSION_IDLE_MINUTES: z.coerce
      .number()
      .positive()
      .max(24 * 60)
      .default(15),
    SESSION_MAX_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .default(12),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PASSWORD_HASH_COST: int(10, 20).default(17),
    LOGIN_RATE_LIMIT_PER_MINUTE: int(1, 100000).default(20),
    LOGIN_SLOWDOWN_AFTER: int(1, 100000).default(20),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, { error: 'must start with redis:// or rediss://' })
      .optional(),
    REDIS_KEY_PREFIX: z.string().min(1).max(200).default('careloop:rate-limit:'),
    METRICS_TOKEN: z.string().min(32, { error: 'must be at least 32 characters' }).max(512).optional(),
    REMINDERS_PER_DOCTOR_PER_HOUR: int(1, 100000).default(30),
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((v, ctx) => {
        const trust = parseTrustProxy(v);
        if (typeof trust === 'string') {
          ctx.addIssue({ code: 'custom', message: trust });
          return z.NEVER;
        }
        return trust;
      }),
    ENCRYPTION_KEY: z.string().min(1).optional(),
    WEB_ORIGIN: z.url().default('http://localhost:8080'),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, { error: 'must start with smtp:// or smtps://' })
      .optional(),
    MAIL_FROM: z.string().min(3).default('CareLoop <no-reply@careloop.example>'),
    GOOGLE_ISSUER_URL: z.url().default('https://accounts.google.com'),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    API_PUBLIC_URL: z.url().optional(),
    SUMMARY_LLM_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    SUMMARY_LLM_MODEL: z.string().min(1).max(200).optional(),
    SUMMARY_LLM_KEY: z.string().min(1).optional(),
    SUMMARY_LLM_TIMEOUT_MS: int(100, 300000).default(15000),
    CLINIC_TIME_ZONE: z
      .string()
      .refine(isTimeZone, { error: 'must be an IANA time zone name, e.g. Australia/Sydney' })
      .optional(),
    FILES_SIGNING_KEY: z
      .string()
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'must be base64' })
      .refine((v) => Buffer.from(v, 'base64').length >= MIN_SIGNING_KEY_BYTES, {
        error: `must be the base64 of at least ${MIN_SIGNING_KEY_BYTES} random bytes (e.g. \`openssl rand -base64 32\`)`,
      })
      .optional(),
    // Fractions allowed (0.001 = 1,048 bytes), so tests and small deployments can set a tiny limit.
    MAX_UPLOAD_MB: z.coerce.number().positive().max(1024).default(20),
    FILE_URL_TTL_MINUTES: z.coerce
      .number()
      .positive()
      .max(7 * 24 * 60)
      .default(15),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    S3_BUCKET: z.string().min(3).max(63).optional(),
    S3_REGION: z.string().min(1).max(64).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    // pg-boss polls at most every 0.5 s.
    REMINDER_POLL_SECONDS: z.coerce.number().min(0.5).max(3600).default(2),
    REMINDER_MAX_ATTEMPTS: int(1, 50).default(5),
    // Longer than the mailer's longest send: a send outliving it is shown 'unknown' (never resent).
    REMINDER_LEASE_SECONDS: int(5, 86400).default(300),
    CONNECTION_REQUESTS_PER_HOUR: int(1, 10000).default(20),
    DOCTOR_VERIFICATION: z.enum(['on', 'off'], { error: 'DOCTOR_VERIFICATION must be on or off' }).default('on'),
    REQUIRE_MFA_FOR: z
      .string()
      .default('doctor')
      .transform((v, ctx) => {
        const roles = parseRequireMfaFor(v);
        if (typeof roles === 'string') {
          ctx.addIssue({ code: 'custom', message: roles });
          return z.NEVER;
        }
        return roles;
      }),
    // Under Docker's 10 s stop timeout by default; fractions allowed (tests use short ones).
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0.5).max(600).default(8),
  })
  .refine((e) => (e.SUMMARY_LLM_URL === undefined) === (e.SUMMARY_LLM_MODEL === undefined), {
    error: 'SUMMARY_LLM_URL and SUMMARY_LLM_MODEL must be set together',
    path: ['SUMMARY_LLM_MODEL'],
  })
  .refine((e) => S3_VARS.every((k) => e[k] === undefined) || S3_VARS.every((k) => e[k] !== undefined), {
    error: `${S3_VARS.join(', ')} must be set all together (S3 storage) or not at all (local disk)`,
    path: ['S3_ENDPOINT'],
  });

export interface Config {
  port: number;
  host: string;
  /** Root of local state (the embedded database lives in `<dataDir>/db`). */
  dataDir: string;
  /** When set, PostgreSQL is used instead of the embedded PGlite. */
  databaseUrl?: string;
  /**
   * Database operations that may wait at once (PGlite's queue, or requests waiting for a pooled
   * PostgreSQL connection); past it new requests get 503 + Retry-After instead of a timeout.
   */
  dbMaxQueue: number;
  webOrigins: string[];
  /** A session unused this long is refused (server side; the browser's idle timer is a courtesy). */
  sessionIdleMinutes: number;
  /** A session older than this is refused however busy it is. */
  sessionMaxHours: number;
  logLevel: string;
  /** log2 of scrypt's N for new hashes; existing hashes keep the cost they were made with. */
  passwordHashCost: number;
  loginRateLimitPerMinute: number;
  /** Failed logins for one e-mail (all addresses, forgotten after an hour of quiet) before it is paced. */
  loginSlowdownAfter: number;
  /** Set: the per-IP rate limits count in this Redis, shared by every replica. Unset: in memory. */
  redisUrl?: string;
  /** Prefix of the rate-limit keys in Redis (several deployments may share one Redis). */
  redisKeyPrefix: string;
  /** Set: GET /metrics answers Prometheus metrics to `Authorization: Bearer <it>`. Unset: /metrics is 404. */
  metricsToken?: string;
  /** Connection requests one account may send per hour (counted in the database): bounds probing e-mails. */
  connectionRequestsPerHour: number;
  /**
   * DOCTOR_VERIFICATION: true (`on`, the default) keeps a doctor's connection requests closed until an
   * operator verified their professional registration; `off` (demos only) lets any doctor send them.
   */
  doctorVerification: boolean;
  /**
   * Which X-Forwarded-For hops to believe, as Fastify's `trustProxy` (proxy-addr): false (no proxy:
   * the socket's address is the client), a hop count, or the proxies' addresses / CIDR ranges.
   * Never "all": a client could then name any address, lock others out and forge the security log.
   */
  trustProxy: TrustProxy;
  /**
   * base64 of 32 bytes: the AES-256-GCM key for secrets at rest (two-factor secrets). Unset: a key
   * file `<dataDir>/encryption.key` is made on first start. Replicas must all be given the same key.
   */
  encryptionKey?: string;
  /** Where the web app lives: reset links and the Google sign-in redirects point there. */
  webOrigin: string;
  /** SMTP server for outgoing mail; unset, mail is written as .eml files to `<dataDir>/outbox/`. */
  smtpUrl?: string;
  mailFrom: string;
  google: {
    issuerUrl: string;
    /** Google sign-in is offered only when this is set. */
    clientId?: string;
    clientSecret?: string;
  };
  /** The api's own public URL: the OAuth redirect_uri and every FHIR link (never the Host header) are built on it. */
  apiPublicUrl: string;
  /**
   * An OpenAI-compatible chat-completions endpoint that rewrites the narrative of record summaries.
   * Unset: summaries are the deterministic text only. The computed sections (vital signs with
   * NEWS2, alerts) are always kept verbatim whatever the model answers.
   */
  summaryLlm?: { url: string; model: string; key?: string; timeoutMs: number };
  /**
   * The clinic's IANA time zone (CLINIC_TIME_ZONE; default the server's): a record's date of
   * admission and the patient's age on it are that zone's calendar date, not UTC's.
   */
  clinicTimeZone: string;
  /** Medical PDF files (FILES_AND_REMINDERS.md). */
  files: {
    /**
     * base64 of ≥ 32 bytes: the HMAC key of the local-disk upload/download URLs. Unset: a key file
     * `<dataDir>/files-signing.key` is made on first start. Replicas must share one key.
     */
    signingKey?: string;
    maxUploadBytes: number;
    /** How long an upload or download URL stays valid. */
    urlTtlSeconds: number;
    /** Set: files live in this S3 bucket (presigned URLs). Unset: under `<dataDir>/files/`. */
    s3?: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };
  };
  /**
   * On SIGTERM/SIGINT, how long in-flight requests may still finish; the rest are then answered
   * 503 (if they still can be) and their connections closed (FAULTS.md "Bounded shutdown").
   */
  shutdownGraceSeconds: number;
  /**
   * Roles whose sessions reach nothing but two-factor enrolment (and their own profile, sessions,
   * logout) until the account has two-factor on (ASVS 6.3.2, HIPAA §164.312(d)).
   */
  requireMfaFor: readonly Role[];
  reminders: {
    /** How often the runner looks for due reminders. */
    pollSeconds: number;
    /** Sending attempts per occurrence before it is given up. */
    maxAttempts: number;
    /** How long a runner holds a claimed occurrence before another may take it back (ms). */
    leaseMs: number;
    /** Reminders one doctor may create in any hour (429 beyond). */
    perDoctorPerHour: number;
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings (e.g. `DATABASE_URL=`) mean "unset", as in most shells' .env conventions.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Env.safeParse(cleaned);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment configuration: ${details}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR ?? path.join(REPO_ROOT, 'data')),
    databaseUrl: e.DATABASE_URL,
    dbMaxQueue: e.DB_MAX_QUEUE,
    webOrigins: e.WEB_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    logLevel: e.LOG_LEVEL,
    passwordHashCost: e.PASSWORD_HASH_COST,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    loginSlowdownAfter: e.LOGIN_SLOWDOWN_AFTER,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    metricsToken: e.METRICS_TOKEN,
    connectionRequestsPerHour: e.CONNECTION_REQUESTS_PER_HOUR,
    doctorVerification: e.DOCTOR_VERIFICATION === 'on',
    trustProxy: e.TRUST_PROXY,
    encryptionKey: e.ENCRYPTION_KEY,
    webOrigin: e.WEB_ORIGIN.replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    google: { issuerUrl: e.GOOGLE_ISSUER_URL, clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET },
    apiPublicUrl: (e.API_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    summaryLlm:
      e.SUMMARY_LLM_URL && e.SUMMARY_LLM_MODEL
        ? { url: e.SUMMARY_LLM_URL, model: e.SUMMARY_LLM_MODEL, key: e.SUMMARY_LLM_KEY, timeoutMs: e.SUMMARY_LLM_TIMEOUT_MS }
        : undefined,
    clinicTimeZone: e.CLINIC_TIME_ZONE ?? serverTimeZone(),
    files: {
      signingKey: e.FILES_SIGNING_KEY,
      maxUploadBytes: Math.floor(e.MAX_UPLOAD_MB * 1024 * 1024),
      urlTtlSeconds: Math.round(e.FILE_URL_TTL_MINUTES * 60),
      s3:
        e.S3_ENDPOINT && e.S3_BUCKET && e.S3_REGION && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
          ? {
              endpoint: e.S3_ENDPOINT.replace(/\/+$/, ''),
              bucket: e.S3_BUCKET,
              region: e.S3_REGION,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            }
          : undefined,
    },
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    requireMfaFor: e.REQUIRE_MFA_FOR,
    reminders: {
      pollSeconds: e.REMINDER_POLL_SECONDS,
      maxAttempts: e.REMINDER_MAX_ATTEMPTS,
      leaseMs: e.REMINDER_LEASE_SECONDS * 1000,
      perDoctorPerHour: e.REMINDERS_PER_DOCTOR_PER_HOUR,
    },
  };
}
