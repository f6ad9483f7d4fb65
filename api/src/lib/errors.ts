/** Thrown by handlers for an expected failure; the error handler answers `{ error: message }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Sent as Retry-After (a 429 or 503 that says when to come back). */
    readonly retryAfterSeconds?: number,
    /** More of the answer beside `error`, as the contract declares it (a 409's `alerts`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * A refusal of a patient's data: answered 404 like an id that does not exist (nothing revealed),
 * and recorded as an audit 'denied' row naming the caller (http/route.ts writes it, outside the
 * transaction the refusal rolls back). `patientId` is the patient asked about.
 */
export class AccessDenied extends HttpError {
  constructor(
    message: string,
    readonly patientId: string,
    /** 404 (as if missing) unless the caller is to be told why: 403 when their own access ended */
    statusCode: 403 | 404 = 404,
  ) {
    super(statusCode, message);
  }
}

/** Drizzle wraps driver errors, so the PostgreSQL code may be on the error or on its cause. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** What a client sees while the database cannot be reached (503, with Retry-After). */
export const DB_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable. Please try again shortly.';
/** Seconds a client should wait before retrying after a 503. */
export const DB_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** What a client sees when too many requests already wait for the database (503, Retry-After: 1). */
export const DB_BUSY_MESSAGE = 'The service is busy. Please try again shortly.';
export const DB_BUSY_RETRY_AFTER_SECONDS = 1;

// Socket-level failures reaching the server (node's errno codes).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
// Class 08 (connection exceptions) is matched by its prefix.
const PG_UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
// node-postgres raises these without a code: a pool connect timeout, a connection dropped
// mid-query, and a query on a client whose connection already failed.
const PG_UNAVAILABLE_MESSAGES = [/^timeout exceeded when trying to connect/i, /^Connection terminated/i, /not queryable/i];

/**
 * True when an error means "the database cannot be reached right now" (server down, restarting,
 * connection refused or cut, pool connect timeout) rather than a bug or a bad query. Drizzle wraps
 * driver errors (DrizzleQueryError), so the cause chain is walked, and the attempts of a
 * multi-address connect (AggregateError) are looked at too.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [err];
  while (pending.length > 0 && seen.size < 20) {
    const e = pending.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, message, cause, errors } = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
      return true;
    }
    if (typeof message === 'string' && PG_UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return false;
}

/** What a client sees when a write failed because the disk (or its quota) is full (507). */
export const STORAGE_FULL_MESSAGE = 'Storage is full; nothing was saved';

// Node's errno codes for a full disk or an exhausted quota.
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
// PostgreSQL (and PGlite, which reports its failed writes the same way): disk_full, and
// configuration_limit_exceeded (e.g. temp_file_limit) of class 53 "insufficient resources".
// 53200 out_of_memory is not storage; 53300 too_many_connections counts as unavailable.
const PG_FULL_CODES = new Set(['53100', '53400']);

/**
 * True when an error means "a write found no space" (ENOSPC/EDQUOT from the file system, or the
 * database's disk_full): answered 507, never a 500. Follows the cause chain as
 * isDatabaseUnavailable does (Drizzle puts PGlite's and node-postgres's error in `cause`).
 */
export function isStorageFull(err: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [err];
  while (pending.length > 0 && seen.size < 20) {
    const e = pending.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, cause, errors } = e as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && (FULL_CODES.has(code) || PG_FULL_CODES.has(code))) return true;
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return false;
}
