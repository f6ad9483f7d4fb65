import { join } from 'node:path';
import { startQaBuilds } from './qa-builds';
import { checkMetrics, PORTS, runtimeConfig, serveApp, startApi, tempDir, writeRuntimeConfig } from './stack';

export default async function globalSetup() {
  const dataDir = tempDir('e2e');
  // Tests read the api's outbox (reset e-mails) from here.
  process.env.CARELOOP_E2E_DATA_DIR = dataDir;
  // First: they build in the background while the stack starts and the first tests run.
  const stopQaBuilds = startQaBuilds(join(dataDir, 'qa-builds'));
  const api = await startApi(dataDir);
  const configFile = join(dataDir, 'runtime-config.json');
  writeRuntimeConfig(configFile, runtimeConfig(PORTS));
  const servers = await Promise.all([
    serveApp('shell', PORTS.shell, configFile),
    serveApp('remote-public', PORTS.public, configFile),
    serveApp('remote-patient', PORTS.patient, configFile),
    serveApp('remote-doctor', PORTS.doctor, configFile),
  ]);
  return async () => {
    stopQaBuilds();
    try {
      const perRoute = await checkMetrics();
      const busiest = [...perRoute].sort((a, b) => b[1] - a[1]).slice(0, 8);
      console.log(
        `/metrics after the browser tests: latency histograms for ${perRoute.size} routes; busiest: ${busiest.map(([r, n]) => `${r} ${n}`).join(', ')}`,
      );
    } finally {
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      api.kill('SIGTERM');
      await new Promise((r) => api.once('exit', r));
    }
  };
}
