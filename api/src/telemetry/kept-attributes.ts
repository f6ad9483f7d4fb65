import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { redactUrl } from '../http/redact-url';

/**
 * The span attributes the api exports (docs/scale-out.md "Traces" lists them), in the stable semantic
 * conventions the pinned instrumentations write: an allow-list, so an attribute a new version adds
 * is dropped until someone puts it here. None holds a
 * name, an e-mail, free text, a query value, a SQL parameter, a header or a client's address.
 */
export const KEPT_ATTRIBUTES: ReadonlySet<string> = new Set([
  // The request (HTTP server span, Fastify's spans); the URL's as redactUrl leaves it (below).
  'careloop.request_id',
  'http.request.method',
  'http.request.method_original',
  'http.route',
  'http.response.status_code',
  'error.type',
  'url.scheme',
  'url.path',
  'url.query',
  'url.full',
  'server.address',
  'server.port',
  'network.protocol.version',
  // @fastify/otel: which hook or handler a span is.
  'fastify.root',
  'fastify.type',
  'hook.name',
  'hook.callback.name',
  // pg: the statement with its $1 placeholders, never their values (enhancedDatabaseReporting off).
  'db.system.name',
  'db.namespace',
  'db.operation.name',
  'db.query.text',
  'db.client.connection.pool.name',
  'db.client.connection.state',
  'db.postgresql.idle.timeout.millis',
  'db.postgresql.max.client',
]);

/** URL attributes, passed through redactUrl as the logs are: no link token, no query value but paging. */
const URL_REDACTION: Partial<Record<string, (value: string) => string>> = {
  'url.path': redactUrl,
  'url.full': redactUrl,
  'url.query': (query) => redactUrl(`/?${query}`).slice(2),
};

function keptAttributes(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (!KEPT_ATTRIBUTES.has(key)) continue;
    const redact = URL_REDACTION[key];
    kept[key] = redact && typeof value === 'string' ? redact(value) : value;
  }
  return kept;
}

/**
 * The span as it may leave the process: the kept attributes only, the status without its
 * description and no events (an error's message or stack can quote a value: a database error
 * names the input it refused). Links keep their target, not their attributes.
 */
export function cleanSpan(span: ReadableSpan): ReadableSpan {
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: { code: span.status.code },
    attributes: keptAttributes(span.attributes),
    links: span.links.map((link) => ({ context: link.context })),
    events: [],
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount + span.events.length,
    droppedLinksCount: span.droppedLinksCount,
  };
}
