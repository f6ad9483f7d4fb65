import { z } from 'zod';

/** runtime-config.json, served beside the shell: where the api and the remotes live today. */
export const RuntimeConfig = z.object({
  apiUrl: z.string(),
  /** each a remote's mf-manifest.json URL (or, as older configs have it, its remoteEntry.js URL) */
  remotes: z.object({ public: z.string(), patient: z.string(), doctor: z.string() }),
  /**
   * Other origins the browser sends requests to, for the web servers' CSP connect-src: the S3
   * bucket that presigned upload URLs point at (local-disk files go through the api).
   */
  connectOrigins: z.array(z.string()).optional(),
  /** minutes without activity before the web app signs out (IDLE_TIMEOUT_MINUTES; 15 when absent) */
  idleTimeoutMinutes: z.number().positive().optional(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;
