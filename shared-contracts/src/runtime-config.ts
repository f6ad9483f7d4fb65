import { z } from 'zod';

/** runtime-config.json, served beside the shell: where the api and the remotes live today. */
export const RuntimeConfig = z.object({
  apiUrl: z.string(),
  /** each a remoteEntry.js URL */
  remotes: z.object({ public: z.string(), patient: z.string(), doctor: z.string() }),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;
