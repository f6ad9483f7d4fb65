import { z } from 'zod';
import { EntityId } from './common';

/** One live session of the caller, as the sessions page lists it. */
export const SessionInfo = z.object({
  id: EntityId,
  /** The browser and system read from the User-Agent at sign-in, e.g. "Chrome 131 on Linux". */
  device: z.string(),
  /** The client address at sign-in: the approximate place. */
  ip: z.string().nullable(),
  startedAt: z.string(),
  lastSeenAt: z.string(),
  /** The session of this very request. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const SessionList = z.object({ sessions: z.array(SessionInfo) });
export type SessionList = z.infer<typeof SessionList>;

export const SessionIdParams = z.strictObject({ sessionId: EntityId });

/** How many sessions a sign-out ended. */
export const SessionsEnded = z.object({ ended: z.number().int().min(0) });
export type SessionsEnded = z.infer<typeof SessionsEnded>;
