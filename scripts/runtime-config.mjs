// The runtime-config.json `npm start` serves to the shell: the api, the remotes' manifests and the
// idle logoff. One writer, so the bench measures the configuration that ships.
import { writeFileSync } from 'node:fs';

/** Where the browser sends a presigned upload: path-style on the endpoint, virtual-hosted on AWS (api/src/adapters/storage/s3.ts). */
function s3Origin(endpoint, bucket) {
  const url = new URL(endpoint);
  if (/(^|\.)amazonaws\.com(\.cn)?$/i.test(url.hostname)) url.hostname = `${bucket}.${url.hostname}`;
  return url.origin;
}

/**
 * @param {{ apiUrl: string, remotes: { public: string, patient: string, doctor: string }, env?: NodeJS.ProcessEnv }} o
 *   `remotes`: each remote's origin; the shell loads its `mf-manifest.json`.
 */
export function runtimeConfig({ apiUrl, remotes, env = process.env }) {
  return {
    apiUrl,
    remotes: Object.fromEntries(Object.entries(remotes).map(([name, origin]) => [name, `${origin}/mf-manifest.json`])),
    // Automatic logoff after this many minutes without activity (HIPAA §164.312(a)(2)(iii)).
    idleTimeoutMinutes: Number(env.IDLE_TIMEOUT_MINUTES) > 0 ? Number(env.IDLE_TIMEOUT_MINUTES) : 15,
    // Presigned uploads go to the bucket: its origin must be in the pages' CSP connect-src.
    ...(env.S3_ENDPOINT && env.S3_BUCKET ? { connectOrigins: [s3Origin(env.S3_ENDPOINT, env.S3_BUCKET)] } : {}),
  };
}

export function writeRuntimeConfig(file, options) {
  writeFileSync(file, JSON.stringify(runtimeConfig(options), null, 2));
}
