/*
 * Preloaded (`-r`) into an api child process by telemetry.test.ts: as the process exits, prints the
 * @opentelemetry/* and @fastify/otel packages it has loaded, so a test can tell tracing off from on.
 */
process.on('exit', () => {
  const packages = new Set<string>();
  for (const file of Object.keys(require.cache)) {
    const found = /[\\/]node_modules[\\/](@opentelemetry[\\/][^\\/]+|@fastify[\\/]otel)[\\/]/.exec(file);
    if (found) packages.add(found[1].replace(/\\/g, '/'));
  }
  process.stderr.write(`\nopentelemetry-packages-loaded=${JSON.stringify([...packages].sort())}\n`);
});
