import { endpoint, perRole } from '../endpoint';
import { SessionIdParams, SessionList, SessionsEnded } from '../sessions';

/** The caller's own sessions: list them, end one, end all but this one (api/src/modules/account/sessions). */
export const SESSION_ENDPOINTS = {
  ...perRole('listSessions', (role) =>
    endpoint({
      method: 'GET',
      path: `/${role}/sessions`,
      summary: "The caller's live sessions (device, address, start, last request), this one marked current",
      tags: [role, 'sessions'],
      access: [role] as const,
      status: 200,
      response: SessionList,
      errors: [401, 403],
    }),
  ),
  ...perRole('endSession', (role) =>
    endpoint({
      method: 'DELETE',
      path: `/${role}/sessions/{sessionId}`,
      summary: "End one of the caller's own sessions; 404 for any other id",
      tags: [role, 'sessions'],
      access: [role] as const,
      params: SessionIdParams,
      status: 200,
      response: SessionsEnded,
      errors: [400, 401, 403, 404],
    }),
  ),
  ...perRole('endOtherSessions', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/sessions/end-others`,
      summary: "End every session of the caller's account but this one",
      tags: [role, 'sessions'],
      access: [role] as const,
      status: 200,
      response: SessionsEnded,
      errors: [401, 403],
    }),
  ),
};
