import { startTelemetry } from '.';

// Imported first by server.ts: tracing (when configured) is set up before anything it patches loads.
startTelemetry(process.env);
