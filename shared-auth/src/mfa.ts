import { create } from 'zustand';
import { MFA_REQUIRED } from '@careloop/shared-contracts/routes';
import { useSession } from './session';

/**
 * The api answers 403 MFA_REQUIRED to every endpoint but enrolment while the account's role must
 * have two-factor on (REQUIRE_MFA_FOR) and it is off. The client notes it here; RequireSession
 * then sends every page but enrolment to the set-up page.
 */
export interface MfaGateState {
  required: boolean;
  setRequired(required: boolean): void;
}

export const useMfaGate = create<MfaGateState>()((set) => ({
  required: false,
  setRequired: (required) => set({ required }),
}));

// A new session (or none) starts without the note: the api says again if it must.
useSession.subscribe((state, previous) => {
  if (state.token !== previous.token && useMfaGate.getState().required) useMfaGate.getState().setRequired(false);
});

/** Reads an error answer for MFA_REQUIRED (the response is cloned: the caller still reads its body). */
export async function noteMfaRequired(response: Response): Promise<void> {
  if (response.status !== 403) return;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  if ((body as { error?: unknown } | null)?.error === MFA_REQUIRED) useMfaGate.getState().setRequired(true);
}
