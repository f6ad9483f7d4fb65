// CPU time per request, per side (the server under test, PostgreSQL), from Linux's /proc: where a
// ratio's time goes. A CPU profile of the api overstates socket writes (its samples land on system
// calls); these are the kernel's own counts. Elsewhere than Linux every figure is undefined.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const LINUX = existsSync('/proc/self/stat');
const TICK_US = 1e6 / 100; // USER_HZ: 100 on every Linux the bench runs on

/** user and system clock ticks a process has used, or undefined once it is gone. */
function ticks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after "pid (comm) ": state is field 3, utime 14, stime 15
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(f[11]), sys: Number(f[12]) };
  } catch {
    return undefined;
  }
}

/** Every PostgreSQL server process on this machine (postmaster, backends, writers). */
function postgresPids() {
  return readdirSync('/proc').filter((d) => {
    if (!/^\d+$/.test(d)) return false;
    try {
      return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  });
}

function read(pids) {
  const out = new Map();
  for (const pid of pids) {
    const t = ticks(pid);
    if (t) out.set(pid, t);
  }
  return out;
}

/** What the server process and (optionally) PostgreSQL have used so far. */
export function cpuSnapshot(serverPid, withPostgres) {
  if (!LINUX) return undefined;
  return { server: read([serverPid]), postgres: withPostgres ? read(postgresPids()) : undefined };
}

/** Ticks used between two snapshots; a process that started in between counts from zero. */
function used(before, after) {
  let user = 0;
  let sys = 0;
  for (const [pid, t] of after) {
    const b = before.get(pid) ?? { user: 0, sys: 0 };
    user += t.user - b.user;
    sys += t.sys - b.sys;
  }
  return { user, sys };
}

/** { server, postgres } ticks used between two snapshots (postgres undefined when not measured). */
export function cpuUsed(before, after) {
  if (!before || !after) return undefined;
  return {
    server: used(before.server, after.server),
    postgres: before.postgres && after.postgres ? used(before.postgres, after.postgres) : undefined,
  };
}

/** Sums the rounds' ticks and divides by their requests: µs of CPU per request, with the system part. */
export function cpuPerRequest(runs) {
  if (runs.some((r) => !r.cpu)) return undefined;
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const side = (pick) => {
    const parts = runs.map((r) => pick(r.cpu));
    if (parts.some((p) => !p)) return undefined;
    const user = parts.reduce((n, p) => n + p.user, 0);
    const sys = parts.reduce((n, p) => n + p.sys, 0);
    return { us: ((user + sys) * TICK_US) / requests, sysUs: (sys * TICK_US) / requests };
  };
  return { server: side((c) => c.server), postgres: side((c) => c.postgres) };
}

/** "api 114 µs (sys 27) + PostgreSQL 74 µs (sys 14)" */
export function cpuText(cpu, server) {
  if (!cpu) return 'n/a';
  const side = (name, c) => `${name} ${Math.round(c.us)} µs (sys ${Math.round(c.sysUs)})`;
  return [side(server, cpu.server), cpu.postgres && side('PostgreSQL', cpu.postgres)].filter(Boolean).join(' + ');
}
