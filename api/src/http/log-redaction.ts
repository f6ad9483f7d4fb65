/**
 * What a log line never holds, whatever a call site passes to the logger: credentials, and a
 * person's data — names, e-mails, file names, free text — and a database error's `detail` (PostgreSQL
 * writes the offending row's values there: `Key (email)=(…) already exists`). Request URLs are
 * redacted on their own (redact-url.ts); the api's own log lines name accounts by id only.
 */
export const REDACTED_KEYS = [
  'authorization',
  'cookie',
  'password',
  'token',
  'name',
  'email',
  'fileName',
  'filename',
  'text',
  'notes',
  'detail',
] as const;

/** pino's redact paths for REDACTED_KEYS, at the top of a log object and one level down (`err.detail`, `body.email`). */
export const REDACT_PATHS = [
  ...REDACTED_KEYS,
  ...REDACTED_KEYS.map((key) => `*.${key}`),
  'req.headers.authorization',
  'req.headers.cookie',
];
