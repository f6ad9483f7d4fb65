/*
 * OpenTelemetry traces (docs/scale-out.md "Traces"), off by default. The rule, read once at start:
 * on when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, unless
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Off, nothing of OpenTelemetry is loaded.
 */

/** Whether these OTEL_* variables turn the api's traces on. */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if (!set('OTEL_EXPORTER_OTLP_ENDPOINT') && !set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')) return false;
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  return (env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() !== 'none';
}

let stop: (() => Promise<void>) | undefined;

/**
 * Starts tracing when `env` asks for it. Must run before fastify, pg and undici are loaded: the
 * instrumentations patch them as they are required (server.ts loads ./register first for that).
 */
export function startTelemetry(env: NodeJS.ProcessEnv): boolean {
  if (stop || !tracingWanted(env)) return false;
  try {
    // Required here, synchronously, and only when on: an `import` would load the SDK always.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startTracing } = require('./sdk') as typeof import('./sdk');
    stop = startTracing(env);
    return true;
  } catch (err) {
    // Traces are an aid: a setting the api cannot follow costs them, never the api itself.
    console.error(`CareLoop api runs without traces: ${(err as Error).message}`);
    return false;
  }
}

/** Sends the spans still buffered and stops tracing (nothing when it is off). */
export async function stopTelemetry(): Promise<void> {
  await stop?.();
}
