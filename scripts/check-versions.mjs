// `npm run check:versions`: a shared package whose files changed since the base without a version bump fails,
// so a remote built with the change declares it (webpack.common.ts shares shared-* by version).
// Base: CHECK_VERSIONS_BASE, else the newest release tag (release-*), else the merge-base with main.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const SHARED_PACKAGES = ['shared-auth', 'shared-contracts', 'shared-router', 'shared-ui'];

const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const tryGit = (cwd, ...args) => {
  try {
    return git(cwd, ...args);
  } catch {
    return '';
  }
};

export function baseRef(cwd) {
  return (
    process.env.CHECK_VERSIONS_BASE ||
    tryGit(cwd, 'describe', '--tags', '--abbrev=0', '--match', 'release-*') ||
    tryGit(cwd, 'merge-base', 'HEAD', 'main') ||
    'HEAD'
  );
}

const versionAt = (cwd, ref, pkg) => {
  const text = tryGit(cwd, 'show', `${ref}:${pkg}/package.json`);
  return text ? JSON.parse(text).version : undefined;
};

/** The shared packages changed since `base` (committed or not) whose version is what it was there. */
export function unbumped(cwd, base, packages = SHARED_PACKAGES) {
  const problems = [];
  for (const pkg of packages) {
    // Files changed in the working tree against base, new untracked files included.
    const changed =
      tryGit(cwd, 'diff', '--name-only', base, '--', pkg) || tryGit(cwd, 'ls-files', '--others', '--exclude-standard', '--', pkg);
    if (!changed) continue;
    const before = versionAt(cwd, base, pkg);
    if (before === undefined) continue; // a new package: nothing released to bump from
    const now = JSON.parse(readFileSync(join(cwd, pkg, 'package.json'), 'utf8')).version;
    if (now === before)
      problems.push(`${pkg} changed since ${base} but is still ${now}: bump its version and add a CHANGELOG.md entry`);
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cwd = process.cwd();
  const base = baseRef(cwd);
  const problems = unbumped(cwd, base);
  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log(`shared package versions: bumped where changed since ${base}`);
}
