import { registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RuntimeConfig } from '@careloop/shared-auth';
import { careloopFederationPlugin } from './federationPlugin';
import { rememberLoadedReleases } from './releases';

export type Owner = 'public' | 'patient' | 'doctor';

/** Federation names, as each remote's webpack config declares them. */
export const REMOTE_NAMES: Record<Owner, string> = {
  public: 'remote_public',
  patient: 'remote_patient',
  doctor: 'remote_doctor',
};

/** Where each remote lives comes from runtime-config.json, never from the shell's build. */
export function registerRemoteLocations(config: RuntimeConfig): void {
  registerPlugins([careloopFederationPlugin()]);
  rememberLoadedReleases(config);
  registerRemotes(
    (Object.keys(REMOTE_NAMES) as Owner[]).map((owner) => ({
      name: REMOTE_NAMES[owner],
      entry: config.remotes[owner],
    })),
  );
}
