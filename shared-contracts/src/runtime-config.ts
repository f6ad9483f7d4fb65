import { z } from 'zod';

/** runtime-config.json, served beside the shell: where the api and the remotes live today. */
export const RuntimeConfig = z.object({
  apiUrl: z.string(),
  /** each a remoteEntry.js URL */
  remotes: z.object({ public: z.string(), patient: z.string(), doctor: z.string() }),
  /**
   * Other origins the browser sends requests to, for the web servers' CSP connect-src: the S3
   * bucket that presigned upload URLs point at (local-disk files go through the api).
   */
  connectOrigins: z.array(z.string()).optional(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;
