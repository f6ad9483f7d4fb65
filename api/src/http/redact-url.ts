/**
 * Query values a log line (or a trace) may keep: paging and similar, never data. Any other value is redacted,
 * so a parameter added later (a file's name, a search by name or e-mail) cannot put patient
 * information or a credential into the logs.
 */
const LOGGED_QUERY_VALUES = new Set(['page', 'limit', '_count', '_offset', 'expires', 'fileType', 'iss', '_format']);

/**
 * Hides secrets and data in a request URL, for the logs and the traces: the token of a reset or
 * verification link, and every query value but LOGGED_QUERY_VALUES' (file URL signatures too).
 */
export function redactUrl(url: string): string {
  const [pathPart, query] = url.split('?', 2);
  const safePath = pathPart
    .replace(/(\/reset-password\/[^/]*\/)[^/?]+/, '$1[redacted]')
    // An e-mail verification link (not the fixed /resend).
    .replace(/(\/verify-email\/)(?!resend$)[^/?]+/, '$1[redacted]');
  if (query === undefined) return safePath;
  const safeQuery = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair.slice(0, 64);
      const key = pair.slice(0, eq);
      return LOGGED_QUERY_VALUES.has(key) ? pair : `${key.slice(0, 64)}=[redacted]`;
    })
    .join('&');
  return `${safePath}?${safeQuery}`;
}
