import { getInstance, satisfy } from '@module-federation/enhanced/runtime';
import type { IncompatibleShared } from './remoteErrors';

/** What a remote's mf-manifest.json says of each package it shares (the fields read here). */
export interface ManifestShared {
  name: string;
  version?: string;
  requiredVersion?: string;
  singleton?: boolean;
}

/** A package the page shares one instance of: its version and whether a remote must be satisfied by it. */
export interface PageShared {
  version: string;
  strict: boolean;
}

/**
 * The first strict singleton the remote requires at a version the page does not have, e.g. shared-auth
 * ^1.2.0 on a page with 1.1.2. Versioned packages (not singletons) are absent: the remote uses its own copy.
 */
export function unmetRequirement(
  required: ManifestShared[],
  page: Record<string, PageShared>,
  satisfies: (version: string, range: string) => boolean = satisfy,
): IncompatibleShared | undefined {
  for (const { name, requiredVersion, singleton } of required) {
    const have = page[name];
    if (!singleton || !requiredVersion || !have?.strict) continue;
    if (!satisfies(have.version, requiredVersion)) return { pkg: name, needs: requiredVersion, loaded: have.version };
  }
  return undefined;
}

/**
 * The singletons of this page: the version already loaded, else the shell's own (which the shell loads
 * as it starts). Strictness is the shell's: every app takes its shared config from webpack.common.ts,
 * and a manifest does not carry it.
 */
export function pageSingletons(): Record<string, PageShared> {
  const instance = getInstance();
  if (!instance) return {};
  const page: Record<string, PageShared> = {};
  for (const [pkg, offers] of Object.entries(instance.options.shared ?? {})) {
    const own = offers.find((offer) => offer.from === instance.options.name) ?? offers[0];
    if (!own?.shareConfig?.singleton) continue;
    const scope = instance.shareScopeMap[own.scope?.[0] ?? 'default']?.[pkg] ?? {};
    const loaded = Object.values(scope).find((offer) => offer.loaded || offer.loading);
    page[pkg] = { version: loaded?.version ?? own.version, strict: Boolean(own.shareConfig.strictVersion) };
  }
  return page;
}

/** Remotes found incompatible when registered, by federation name: each is explained, and logged once. */
const incompatible = new Map<string, IncompatibleShared>();

export function incompatibleRemote(name: string): IncompatibleShared | undefined {
  return incompatible.get(name);
}

/** The runtime's own words for a strict mismatch, so the cause reads the same wherever it is caught. */
export const mismatchMessage = (remote: string, host: string, { pkg, needs, loaded }: IncompatibleShared) =>
  `Version ${loaded} from ${host} of shared singleton module ${pkg} does not satisfy the requirement of ${remote} which needs ${needs})`;

/**
 * Checks a remote's manifest against the page before any of its code runs: a remote that needs a shared
 * version the page cannot give is refused here (the load fails with the runtime's mismatch message).
 */
export function checkManifest(remote: string, manifest: unknown, page = pageSingletons()): void {
  const shared = (manifest as { shared?: unknown } | null)?.shared;
  if (!Array.isArray(shared)) return;
  const unmet = unmetRequirement(shared as ManifestShared[], page);
  if (!unmet) return;
  const message = mismatchMessage(remote, getInstance()?.options.name ?? 'shell', unmet);
  if (!incompatible.has(remote)) {
    incompatible.set(remote, unmet);
    console.error(`CareLoop: ${remote} needs ${unmet.pkg} ${unmet.needs}, this page has ${unmet.loaded}. ${message}`);
  }
  throw new Error(message);
}

/** Errors already logged with their cause (a remote refused at registration): not logged again when shown. */
const reported = new WeakSet<object>();

export function markReported(error: unknown): void {
  if (typeof error === 'object' && error !== null) reported.add(error);
}

export function alreadyReported(error: unknown): boolean {
  return typeof error === 'object' && error !== null && reported.has(error);
}

/** Forgets what was found, as a new page load would (tests). */
export function forgetIncompatibleRemotes() {
  incompatible.clear();
}
