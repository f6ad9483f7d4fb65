// CareLoop benchmark suite. `npm run bench` (= npm run build && node bench/run.mjs) runs every
// section; `node bench/run.mjs [--only api|scale|web] [--quick]` for iteration. See bench/README.md.
// Prints one table per section (each figure next to its same-run baseline and its target) and
// writes bench/results/latest.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ALLERGY_NOTES_TARGET_MS, runAllergies } from './allergies.mjs';
import { runApi, TARGETS } from './api.mjs';
import { cpuText } from './lib/cpu.mjs';
import { BENCH, cleanupAll, ROOT } from './lib/proc.mjs';
import { runScale, SCALE_RATIO_TARGET, WORKLIST_P99_TARGET_MS } from './scale.mjs';
import {
  LANDING_IDLE_RATIO_TARGET,
  LANDING_JS_RATIO_TARGET,
  LANDING_JS_TARGET_KB,
  LIGHTHOUSE_MOBILE_TARGET,
  LIGHTHOUSE_TARGET,
  MOBILE_LCP_TARGET_MS,
  MOBILE_TBT_TARGET_MS,
  runWeb,
} from './web.mjs';

const SECTIONS = ['api', 'scale', 'web', 'allergies'];

function parseArgs(argv) {
  const opts = { quick: false, only: [...SECTIONS] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') opts.quick = true;
    else if (a === '--only' || a.startsWith('--only=')) {
      const value = a.includes('=') ? a.split('=')[1] : argv[++i];
      const list = (value ?? '').split(',').filter(Boolean);
      const bad = list.filter((s) => !SECTIONS.includes(s));
      if (!list.length || bad.length) throw new Error(`--only takes ${SECTIONS.join('|')} (comma-separated), got ${value}`);
      opts.only = list;
    } else if (a === '--help' || a === '-h') {
      console.log('usage: node bench/run.mjs [--only api|scale|web|allergies[,…]] [--quick]');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

// ---- formatting -------------------------------------------------------------------------------
const fmt = {
  ms: (v) => (v === null || v === undefined ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1)),
  int: (v) => (v === null || v === undefined ? '–' : Math.round(v).toLocaleString('en')),
  kb: (bytes) => `${(bytes / 1024).toFixed(1)} KB`,
  x: (v) => `${v.toFixed(2)}×`,
};
const mark = (met) => (met ? 'met' : 'NOT MET');

function table(headers, rows) {
  const cells = [headers, ...rows].map((r) => r.map((c) => String(c)));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(cells[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

// ---- tables + target verdicts -----------------------------------------------------------------
function apiReport(api, targets) {
  const out = [];
  out.push(
    `Machine (bare Fastify route returning a constant, no database): ` +
      api.bare.map((b) => `c=${b.connections}: ${fmt.int(b.rps)} req/s, p99 ${b.p99} ms`).join('; '),
  );
  for (const backend of [...new Set(api.rows.map((r) => r.backend))]) {
    const goals = TARGETS[backend];
    const rows = api.rows
      .filter((r) => r.backend === backend)
      .map((r) => {
        const goal = goals[r.endpoint] ?? {};
        const verdicts = [];
        const judge = (what, value, target, met) => {
          targets.push({ section: 'api', what: `${backend} ${r.label} ${what} @${r.connections} conns`, value, target, met });
          verdicts.push(`${what} ${target}: ${mark(met)}`);
        };
        if (goal.ratio !== undefined) judge('ratio', r.ratio.toFixed(2), `≥ ${goal.ratio}`, r.ratio >= goal.ratio);
        if (goal.p99 !== undefined) judge('p99', `${r.p99} ms`, `≤ ${goal.p99} ms`, r.p99 <= goal.p99);
        if (goal.clean) judge('errors+timeouts', `${r.errors + r.timeouts}`, '= 0', r.errors + r.timeouts === 0);
        return [
          r.note ? `${r.label} (${r.note})` : r.label,
          r.connections,
          fmt.int(r.rps),
          `${r.p50} ms`,
          `${r.p99} ms (worst ${r.p99Worst})`,
          `${r.errors + r.timeouts}/${r.non2xx}`,
          `${r.ceiling.kind}: ${fmt.int(r.ceiling.rps)} req/s, p99 ${r.ceiling.p99} ms, err ${r.ceiling.errors + r.ceiling.timeouts}`,
          r.ratio.toFixed(2) + (r.oneQueryRatio === undefined ? '' : ` (one-query: ${r.oneQueryRatio.toFixed(2)})`),
          `${cpuText(r.cpu, 'api')}; ceiling ${cpuText(r.ceiling.cpu, 'node')}`,
          verdicts.join('; '),
        ];
      });
    out.push(
      `\n${backend === 'pglite' ? 'PGlite (embedded, default)' : 'PostgreSQL 15'} — ${api.rounds} rounds A B A B of ${api.duration} s ` +
        `(A = the endpoint's ceiling, B = the endpoint) after ${api.warmup} s warm-up each; p50/p99 = median of the rounds.\n` +
        'Ceilings: one-query = one select by primary key; same-work = the same statements, rows and answer from ' +
        "Fastify and pg alone (bench/same-work-server.mjs), its answer checked equal to CareLoop's first.",
      table(
        [
          'endpoint',
          'conns',
          'req/s',
          'p50',
          'p99',
          'errors+timeouts/non-2xx',
          'ceiling (A)',
          'ratio',
          'CPU per request (Linux /proc)',
          'targets',
        ],
        rows,
      ),
    );
  }
  for (const n of api.notes) out.push(`note: ${n}`);
  return out.join('\n');
}

function allergiesReport(a, targets) {
  const met = a.slowest.heavy.median < ALLERGY_NOTES_TARGET_MS;
  targets.push({
    section: 'allergies',
    what: `slowest endpoint median, ${a.notes} notes of ${a.noteLength} characters (${a.slowest.endpoint})`,
    value: `${fmt.ms(a.slowest.heavy.median)} ms`,
    target: `< ${ALLERGY_NOTES_TARGET_MS} ms`,
    met,
  });
  const rows = a.rows.map((r) => [
    r.endpoint,
    `${fmt.ms(r.light.median)} / ${fmt.ms(r.light.p99)} ms`,
    `${fmt.ms(r.heavy.median)} / ${fmt.ms(r.heavy.p99)} ms`,
    fmt.x(r.ratio),
    fmt.kb(r.heavy.bytes),
  ]);
  return [
    `${a.samples} sequential keep-alive requests per figure (after 2 warm-up), PGlite, default configuration.`,
    table(
      ['endpoint', 'the same, one short note (median / p99)', `${a.notes} maximal notes (median / p99)`, 'ratio', 'answer size'],
      rows,
    ),
    `slowest: ${a.slowest.endpoint} ${fmt.ms(a.slowest.heavy.median)} ms — target < ${ALLERGY_NOTES_TARGET_MS} ms: ${mark(met)}`,
  ].join('\n');
}

function worklistReport(w, targets) {
  if (!w) return [];
  const met = w.p99 <= WORKLIST_P99_TARGET_MS;
  targets.push({
    section: 'scale',
    what: `postgres GET /doctor/worklist, ${fmt.int(w.patients)} patients, ${fmt.int(w.records)} records, p99 @1 conn`,
    value: `${fmt.ms(w.p99)} ms`,
    target: `≤ ${WORKLIST_P99_TARGET_MS} ms`,
    met,
  });
  return [
    `worklist (PostgreSQL, one doctor with all ${fmt.int(w.patients)} patients and ${fmt.int(w.records)} records, ${w.samples} sequential requests): ` +
      `median ${fmt.ms(w.median)} ms, p99 ${fmt.ms(w.p99)} ms, ${fmt.int(w.bytes / 1024)} KB — p99 ≤ ${WORKLIST_P99_TARGET_MS} ms: ${mark(met)}`,
  ];
}

function scaleReport(scale, targets) {
  const rows = scale.rows.map((r) => {
    const met = r.ratioMedian <= SCALE_RATIO_TARGET;
    const label = `${r.backend} ${fmt.int(r.bigRows)}/${fmt.int(r.smallRows)}`;
    targets.push({
      section: 'scale',
      what: `${r.backend} ${r.endpoint} median ratio ${label}`,
      value: fmt.x(r.ratioMedian),
      target: `≤ ${SCALE_RATIO_TARGET}`,
      met,
      primary: r.bigRows >= 1_000_000,
    });
    return [
      r.backend,
      r.endpoint,
      `${r.small.total}`,
      `${fmt.ms(r.small.median)} / ${fmt.ms(r.small.p99)} ms`,
      `${fmt.ms(r.big.median)} / ${fmt.ms(r.big.p99)} ms`,
      `${fmt.x(r.ratioMedian)} / ${fmt.x(r.ratioP99)}`,
      `≤ ${SCALE_RATIO_TARGET}: ${mark(met)}`,
    ];
  });
  const sizes = [
    ...new Set(scale.rows.map((r) => `${r.backend}: ${fmt.int(r.smallRows)} → ${fmt.int(r.bigRows)} rows per table`)),
  ];
  const seed = Object.entries(scale.seed)
    .map(
      ([b, s]) =>
        `${b} seeded to the big size in ${s.bigSeconds.toFixed(1)} s${s.sizes ? ` (medical_records ${s.sizes.records}, prescriptions ${s.sizes.prescriptions} incl. indexes)` : ''}`,
    )
    .join('; ');
  return [
    `${sizes.join('; ')}. ${scale.samples} sequential keep-alive requests per figure (after 20 warm-up), page=1&limit=10,`,
    `both sizes served at once (two api processes) and sampled in alternating rounds of ${scale.samples / 10}.`,
    `Baseline: the same request on the 1,000-rows-per-table database, same run. "own rows" = the list's total (the user's own data, equal at both sizes).`,
    table(
      [
        'backend',
        'endpoint (as)',
        'own rows',
        'small: median / p99',
        'big: median / p99',
        'ratio median / p99',
        'target (median ratio)',
      ],
      rows,
    ),
    `seeding: ${seed}`,
    ...worklistReport(scale.worklist, targets),
    ...scale.notes.map((n) => `note: ${n}`),
  ].join('\n');
}

function webReport(web, targets) {
  const { js, lighthouse: lh, lighthouseMobile: mobile } = web;
  const base = js.single;
  const ratio = js.landing.gzipBytes / base.gzipBytes;
  const ratioMet = ratio <= LANDING_JS_RATIO_TARGET;
  targets.push({
    section: 'web',
    what: '/ landing: JS before first paint ÷ single bundle',
    // prerendered: say what the app itself then needs, beside the figure the target is about
    value: `${fmt.x(ratio)} (${fmt.kb(js.landing.gzipBytes)} / ${fmt.kb(base.gzipBytes)}; app: ${fmt.x(js.landing.app.gzipBytes / base.app.gzipBytes)})`,
    target: `≤ ${fmt.x(LANDING_JS_RATIO_TARGET)}`,
    met: ratioMet,
  });
  const idleRatio = js.landing.idle.gzipBytes / base.idle.gzipBytes;
  targets.push({
    section: 'web',
    what: '/ landing: JS until the network is idle ÷ single bundle',
    value: `${fmt.x(idleRatio)} (${fmt.kb(js.landing.idle.gzipBytes)} / ${fmt.kb(base.idle.gzipBytes)})`,
    target: `≤ ${fmt.x(LANDING_IDLE_RATIO_TARGET)}`,
    met: idleRatio <= LANDING_IDLE_RATIO_TARGET,
  });
  const jsRow = (name, r, baseline, targeted) => {
    const met = r.gzipBytes <= LANDING_JS_TARGET_KB * 1024;
    if (targeted)
      targets.push({
        section: 'web',
        what: `${name}: JS gzipped before first paint`,
        value: `${fmt.kb(r.gzipBytes)} (app: ${fmt.kb(r.app.gzipBytes)})`,
        target: `≤ ${LANDING_JS_TARGET_KB} KB`,
        met,
      });
    return [
      name,
      fmt.kb(r.gzipBytes),
      fmt.kb(r.rawBytes),
      r.scripts,
      `${r.headingMs} ms`,
      baseline,
      targeted ? `≤ ${LANDING_JS_TARGET_KB} KB: ${mark(met)}` : `(≤ ${LANDING_JS_TARGET_KB} KB: ${mark(met)})`,
    ];
  };
  const jsRows = [
    jsRow(
      '/ landing (shell + remote-public, federated)',
      js.landing,
      `${fmt.kb(base.gzipBytes)} single bundle: ${fmt.x(ratio)} (≤ ${fmt.x(LANDING_JS_RATIO_TARGET)}: ${mark(ratioMet)})`,
      true,
    ),
    jsRow('/ landing as ONE bundle, no federation', base, '—', false),
    jsRow('/patient/dashboard (logged-in patient)', js.dashboard, `${fmt.kb(js.landing.gzipBytes)} federated landing`, false),
  ];
  const lhRow = (name, r, baseline, targeted) => {
    const met = r.medianScore >= LIGHTHOUSE_TARGET;
    if (targeted)
      targets.push({
        section: 'web',
        what: `${name}: Lighthouse performance`,
        value: String(r.medianScore),
        target: `≥ ${LIGHTHOUSE_TARGET}`,
        met,
      });
    return [
      name,
      `${r.medianScore} (${r.scores.join(', ')})`,
      `${fmt.int(r.lcp)} ms`,
      `${fmt.int(r.tbt)} ms`,
      r.cls.toFixed(3),
      `${fmt.int(r.fcp)} ms`,
      baseline,
      targeted ? `≥ ${LIGHTHOUSE_TARGET}: ${mark(met)}` : '',
    ];
  };
  const lhBase = `single bundle: ${lh.single.medianScore}, LCP ${fmt.int(lh.single.lcp)} ms`;
  const lhRows = [
    lhRow('/ landing (federated)', lh.landing, lhBase, true),
    lhRow('/ landing, single bundle', lh.single, '—', false),
    lhRow('/patient/dashboard', lh.dashboard, `federated landing: ${lh.landing.medianScore}`, true),
  ];
  const mobileRow = (name, r, baseline, targeted) => {
    const met = r.medianScore >= LIGHTHOUSE_MOBILE_TARGET && r.lcp <= MOBILE_LCP_TARGET_MS && r.tbt <= MOBILE_TBT_TARGET_MS;
    const target = `≥ ${LIGHTHOUSE_MOBILE_TARGET}, LCP ≤ ${fmt.int(MOBILE_LCP_TARGET_MS)} ms, TBT ≤ ${MOBILE_TBT_TARGET_MS} ms`;
    if (targeted)
      targets.push({
        section: 'web',
        what: `${name}: Lighthouse mobile performance, LCP, TBT (benchmark index ${fmt.int(r.benchmarkIndex)})`,
        value: `${r.medianScore}, LCP ${fmt.int(r.lcp)} ms, TBT ${fmt.int(r.tbt)} ms`,
        target,
        met,
      });
    return [
      name,
      `${r.medianScore} (${r.scores.join(', ')})`,
      `${fmt.int(r.lcp)} ms`,
      `${fmt.int(r.tbt)} ms`,
      r.cls.toFixed(3),
      `${fmt.int(r.fcp)} ms`,
      fmt.int(r.benchmarkIndex),
      baseline,
      targeted ? `${target}: ${mark(met)}` : '',
    ];
  };
  const mobileBase = `single bundle: ${mobile.single.medianScore}, LCP ${fmt.int(mobile.single.lcp)} ms`;
  const mobileRows = [
    mobileRow('/ landing (federated)', mobile.landing, mobileBase, true),
    mobileRow('/login/patient (federated)', mobile.login, mobileBase, true),
    mobileRow('/patient/dashboard (signed in)', mobile.patientDashboard, mobileBase, true),
    mobileRow('/doctor/dashboard (signed in)', mobile.doctorDashboard, mobileBase, true),
    mobileRow('/ landing, single bundle', mobile.single, '—', false),
  ];
  const chunks = js.landing.files
    .filter((f) => f.beforeApp)
    .slice(0, 8)
    .map((f) => [f.file, f.origin, fmt.kb(f.gzip), fmt.kb(f.raw), f.contains]);
  return [
    'JS downloaded by Chromium before the page heading is visible (cache disabled, slow 4G as Lighthouse mobile, Brotli/gzip as served by scripts/web-server.mjs):',
    table(['page', 'JS gzipped', 'JS raw', 'scripts', 'heading at', 'baseline', 'target'], jsRows),
    // `/` is prerendered (shell/dist/prerendered/): its heading paints before any script. What the page needs to
    // become the app is shown here too, beside the same for the single bundle, with no target.
    'JS downloaded before the app has taken over the page (prerendered pages: the static copy swapped for the app; others: as above):',
    table(
      ['page', 'JS gzipped', 'scripts', 'app at', 'ratio to single bundle'],
      [
        [
          '/ landing (federated, prerendered)',
          fmt.kb(js.landing.app.gzipBytes),
          js.landing.app.scripts,
          `${js.landing.appMs} ms`,
          fmt.x(js.landing.app.gzipBytes / base.app.gzipBytes),
        ],
        ['/ landing as ONE bundle', fmt.kb(base.app.gzipBytes), base.app.scripts, `${base.appMs} ms`, '—'],
      ],
    ),
    'JS downloaded until the network is idle (prefetches included):',
    table(
      ['page', 'JS gzipped', 'scripts', 'ratio to single bundle', 'target'],
      [
        [
          '/ landing (federated)',
          fmt.kb(js.landing.idle.gzipBytes),
          js.landing.idle.scripts,
          fmt.x(idleRatio),
          `≤ ${fmt.x(LANDING_IDLE_RATIO_TARGET)}: ${mark(idleRatio <= LANDING_IDLE_RATIO_TARGET)}`,
        ],
        ['/ landing as ONE bundle', fmt.kb(base.idle.gzipBytes), base.idle.scripts, '—', ''],
        ['/patient/dashboard (signed in)', fmt.kb(js.dashboard.idle.gzipBytes), js.dashboard.idle.scripts, '', ''],
      ],
    ),
    '\nLargest scripts of the federated landing, until the app has taken over (what dominates):',
    table(['file', 'from', 'gzipped', 'raw', 'contains'], chunks),
    `\nLighthouse ${web.lighthouseRuns === 1 ? '(1 run)' : `(median of ${web.lighthouseRuns} runs)`}, ${web.preset} preset (simulated throttling), Debian Chromium headless:`,
    table(['page', 'performance', 'LCP', 'TBT', 'CLS', 'FCP', 'baseline', 'target'], lhRows),
    `\nLighthouse ${web.lighthouseRuns === 1 ? '(1 run)' : `(median of ${web.lighthouseRuns} runs)`}, default MOBILE preset (Moto G Power, slow 4G, 4× CPU slowdown, simulated):`,
    table(['page', 'performance', 'LCP', 'TBT', 'CLS', 'FCP', 'benchmark index', 'baseline', 'target'], mobileRows),
    ...[...Object.entries(lh), ...Object.entries(mobile).map(([k, r]) => [`mobile ${k}`, r])].map(
      ([k, r]) =>
        `${k}: LCP element ${JSON.stringify(r.lcpElement)}` +
        (r.observedLcp != null ? ` (observed in the trace at ${fmt.int(r.observedLcp)} ms, unthrottled)` : '') +
        (r.longTasks?.length ? `; longest task ${r.longTasks[0].duration} ms (${r.longTasks[0].url.split('/').pop()})` : '') +
        (r.layoutShifts.length
          ? `; layout shifts: ${r.layoutShifts.map((x) => `${JSON.stringify(x.element)} (${x.score.toFixed(3)})`).join(', ')}`
          : ''),
    ),
  ].join('\n');
}

// ---- main ---------------------------------------------------------------------------------------
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const log = (m) => console.log(m);
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
  } catch {
    /* not a checkout */
  }
  const results = {
    date: new Date().toISOString(),
    commit,
    quick: opts.quick,
    sections: opts.only,
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavgAtStart: loadavg() },
    targets: [],
  };
  console.log(
    `CareLoop bench — ${opts.quick ? 'QUICK (shorter durations, smaller tables)' : 'full'} run of ${opts.only.join(', ')}; commit ${commit}; ${results.machine.cpus} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (loadavg()[0] > 1.5)
    console.log('warning: the machine is already busy (load average > 1.5): figures will be noisy and pessimistic');

  const runners = { api: runApi, scale: runScale, web: runWeb, allergies: runAllergies };
  const failures = [];
  for (const section of opts.only) {
    console.log(`\n=== ${section.toUpperCase()} ===`);
    const load = loadavg()[0];
    try {
      results[section] = { loadavgAtStart: load, ...(await runners[section]({ quick: opts.quick, log })) };
    } catch (err) {
      console.error(`${section} failed: ${err?.stack ?? err}`);
      results[section] = { error: String(err?.message ?? err) };
      failures.push(section);
    }
  }

  const reports = [];
  const targets = results.targets;
  if (results.api && !results.api.error) reports.push(['API', apiReport(results.api, targets)]);
  if (results.scale && !results.scale.error)
    reports.push(['SCALE — page-1 latency, 1k rows vs big table', scaleReport(results.scale, targets)]);
  if (results.web && !results.web.error) reports.push(['WEB', webReport(results.web, targets)]);
  if (results.allergies && !results.allergies.error)
    reports.push([
      `ALLERGY NOTES — a patient with ${results.allergies.notes} maximal notes`,
      allergiesReport(results.allergies, targets),
    ]);
  console.log('\n\n================ RESULTS ================');
  for (const [title, text] of reports) console.log(`\n## ${title}\n${text}`);
  if (targets.length) {
    console.log('\n## TARGETS');
    console.log(
      table(
        ['section', 'figure', 'value', 'target', 'verdict'],
        targets.map((t) => [t.section, t.what, t.value, t.target, mark(t.met)]),
      ),
    );
  }
  for (const f of failures) console.log(`\n${f}: FAILED — ${results[f].error}`);
  results.seconds = (Date.now() - started) / 1000;
  results.machine.loadavgAtEnd = loadavg();
  mkdirSync(join(BENCH, 'results'), { recursive: true });
  const file = join(BENCH, 'results', 'latest.json');
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${file} — total ${(results.seconds / 60).toFixed(1)} min`);
  return failures.length ? 1 : 0;
}

main()
  .then(async (code) => {
    await cleanupAll();
    process.exit(code);
  })
  .catch(async (err) => {
    console.error(err?.stack ?? err);
    await cleanupAll();
    process.exit(1);
  });
