import { FastifyOtelInstrumentation } from '@fastify/otel';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { cleanSpan } from './kept-attributes';

/** The answer's X-Request-Id (http/request-id.ts), on the HTTP server span and Fastify's request span. */
const REQUEST_ID = 'careloop.request_id';

/** The OTLP exporter of OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL; it reads its endpoint, headers and timeout from OTEL_* itself. */
function otlpExporter(env: NodeJS.ProcessEnv): SpanExporter {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf';
  if (protocol === 'http/json') return new OtlpJsonExporter();
  if (protocol === 'http/protobuf') return new OtlpProtobufExporter();
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported by the api: use http/protobuf or http/json`);
}

/** Every span leaves through cleanSpan (kept-attributes.ts): nothing else reaches the exporter. */
class CleaningExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    this.inner.export(spans.map(cleanSpan), done);
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * Starts the OpenTelemetry SDK: traces only (no metrics or logs: /metrics and the JSON logs stay
 * as they are), batched by the OTEL_BSP_* variables, sampled by OTEL_TRACES_SAMPLER, named by
 * OTEL_SERVICE_NAME (careloop-api when unset). Answers the function that flushes and stops it.
 */
export function startTracing(env: NodeJS.ProcessEnv): () => Promise<void> {
  const named = Boolean(env.OTEL_SERVICE_NAME) || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  const sdk = new NodeSDK({
    ...(named ? {} : { serviceName: 'careloop-api' }),
    traceExporter: new CleaningExporter(otlpExporter(env)),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation(),
      new UndiciInstrumentation(),
      // Database spans only inside a request's trace: pg-boss's polling would be a trace a second.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        recordExceptions: false,
        requestHook: (span, request) => {
          span.setAttribute(REQUEST_ID, request.id);
          // Still the active span here: the HTTP server span of this request (instrumentation-http).
          trace.getActiveSpan()?.setAttribute(REQUEST_ID, request.id);
        },
      }),
    ],
  });
  sdk.start();
  return () => sdk.shutdown();
}
