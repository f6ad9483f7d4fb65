/** A shared package a remote was built against that the page cannot give it (a strictVersion mismatch). */
export interface IncompatibleShared {
  pkg: string;
  /** the range the remote was built for, e.g. ^1.2.0 */
  needs: string;
  /** the version already loaded in the page */
  loaded: string;
}

// The federation runtime's words (@module-federation/runtime-core utils/share): "Version 1.1.0 from shell of
// shared singleton module shared-auth does not satisfy the requirement of remote_patient which needs ^1.2.0)".
const MISMATCH =
  /Version (\S+) from .*? shared singleton module (\S+) does not satisfy the requirement of .*? which needs ([^\s)]+)/;

/** The mismatch a remote's load failed on, or undefined for any other failure (down, network, bug). */
export function incompatibleShared(error: unknown): IncompatibleShared | undefined {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const match = MISMATCH.exec(message);
  return match ? { loaded: match[1], pkg: match[2], needs: match[3] } : undefined;
}

const parts = (version: string) => (version.match(/\d+/g) ?? []).slice(0, 3).map(Number);

/** Whether the remote wants a newer version than the loaded one (rather than an older one, e.g. React 18 on 19). */
export function needsNewer({ needs, loaded }: IncompatibleShared): boolean {
  const [want, have] = [parts(needs), parts(loaded)];
  for (let i = 0; i < 3; i++) if ((want[i] ?? 0) !== (have[i] ?? 0)) return (want[i] ?? 0) > (have[i] ?? 0);
  return false;
}
