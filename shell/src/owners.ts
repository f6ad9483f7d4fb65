import type { Owner } from './remotes';

/**
 * Who owns a URL: the one place that says it. A URL goes to the owner of its longest matching
 * prefix; the owner's own route list (remote-x/src/routes.ts, exposed as `routes`) decides what is
 * served there, so a remote adds a route under its prefixes with no shell release.
 * The exact exceptions are pages under a role's prefix that remote-public serves.
 */
export const URL_OWNERS: { prefix: string; owner: Owner }[] = [
  { prefix: '/', owner: 'public' },
  { prefix: '/patient', owner: 'patient' },
  { prefix: '/doctor', owner: 'doctor' },
  { prefix: '/medical-record', owner: 'doctor' },
  { prefix: '/create-prescription', owner: 'doctor' },
  { prefix: '/patient/forgot-password', owner: 'public' },
  { prefix: '/patient/reset-password', owner: 'public' },
  { prefix: '/patient/verify-email', owner: 'public' },
  { prefix: '/doctor/forgot-password', owner: 'public' },
  { prefix: '/doctor/reset-password', owner: 'public' },
  { prefix: '/doctor/verify-email', owner: 'public' },
];

const underPrefix = (pathname: string, prefix: string) =>
  prefix === '/' || pathname === prefix || pathname.startsWith(`${prefix}/`);

export function ownerOf(pathname: string): Owner {
  let best = URL_OWNERS[0];
  for (const entry of URL_OWNERS) {
    if (underPrefix(pathname, entry.prefix) && entry.prefix.length > best.prefix.length) best = entry;
  }
  return best.owner;
}
