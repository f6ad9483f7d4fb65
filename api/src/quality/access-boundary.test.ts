import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { accessViolations, isExempt, scanSources } from './access-boundary';

const SRC = path.join(__dirname, '..');
const ROOT = path.join(SRC, '..', '..');

describe('the access layer boundary (deny by default)', () => {
  it('no product file outside src/access queries a patient table or reaches into the access layer', () => {
    expect(scanSources(SRC)).toEqual([]);
  });

  it('walks every product file of a tree, tests and the access layer left out', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-access-'));
    try {
      const files = {
        'modules/files/routes.ts': `import { medicalFiles } from '../../db/schema';`,
        'modules/files/files.test.ts': `import { medicalFiles } from '../../db/schema';`,
        'access/files.ts': `import { medicalFiles } from '../db/schema';`,
      };
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      }
      expect(scanSources(dir)).toEqual([
        `${path.join('modules', 'files', 'routes.ts')}: imports the patient table medicalFiles from db/schema`,
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fires on a new route that reads patient data itself', () => {
    const route = `
      import { eq } from 'drizzle-orm';
      import { medicalRecords, sessions } from '../../db/schema';
      import { findRecord } from '../../access/records';
      export const read = (db, id) => db.select().from(medicalRecords).where(eq(medicalRecords.id, id));`;
    expect(accessViolations('modules/sneaky/routes.ts', route)).toEqual([
      'imports the patient table medicalRecords from db/schema',
      'imports access/records: use what src/access/index.ts exports',
    ]);
  });

  it.each([
    [
      'a namespace import of the schema',
      `import * as schema from '../../db/schema';`,
      'imports all of db/schema (patient tables included)',
    ],
    [
      'a renamed table',
      `import { prescriptions as p } from '../../db/schema';`,
      'imports the patient table prescriptions from db/schema',
    ],
    ['a re-export', `export { reminders } from '../../db/schema';`, 'imports the patient table reminders from db/schema'],
    [
      'raw SQL',
      'const q = sql`select * from medical_files where patient_id = ${id}`;',
      'queries a patient table in SQL: `select * from medical_files where patient_id = ${id}`',
    ],
    ['the relational API', 'const rows = db.query.assignments.findMany();', 'queries assignments through db.query'],
  ])('fires on %s', (_label, source, violation) => {
    expect(accessViolations('modules/sneaky/store.ts', source)).toEqual([violation]);
  });

  it('lets through what is not patient data, type-only imports and the access index', () => {
    const fine = `
      import { sessions, patients } from '../../db/schema';
      import type { medicalRecords } from '../../db/schema';
      import { accessFor } from '../../access';
      import { isAssigned } from '../../access/index';
      const q = sql\`select 1 from sessions\`;`;
    expect(accessViolations('modules/account/auth/sessions.ts', fine)).toEqual([]);
    expect(['access/records.ts', 'db/schema.ts', 'modules/records/records.test.ts', 'test/clinical.ts'].every(isExempt)).toBe(
      true,
    );
    expect(isExempt('modules/records/routes.ts')).toBe(false);
  });
});

/** Runs `npm run lint:deps`'s rules (.dependency-cruiser.cjs) over a throw-away tree. */
async function depcruise(files: Record<string, string>): Promise<{ ok: boolean; output: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-depcruise-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    // the CLI as the package declares it (its file moved between majors)
    const pkg = path.join(ROOT, 'node_modules', 'dependency-cruiser');
    const bin = path.join(pkg, JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).bin['dependency-cruise']);
    const run = promisify(execFile)(process.execPath, [bin, 'api/src', '--config', path.join(ROOT, '.dependency-cruiser.cjs')], {
      cwd: dir,
    });
    try {
      const { stdout } = await run;
      return { ok: true, output: stdout };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the dependency rules (.dependency-cruiser.cjs)', () => {
  jest.setTimeout(120_000);

  it('pass on a tree that keeps them', async () => {
    const result = await depcruise({
      'api/src/access/index.ts': `export { read } from './records';\n`,
      'api/src/access/records.ts': `export const read = () => 1;\n`,
      'api/src/clinical/news2.ts': `export const score = (n: number) => n;\n`,
      'api/src/modules/records/routes.ts': `import { read } from '../../access';\nimport { score } from '../../clinical/news2';\nexport const r = () => score(read());\n`,
    });
    expect(result).toEqual({ ok: true, output: expect.stringContaining('no dependency violations found') });
  });

  it('fail on a file cycle, a module cycle, an impure clinical file and a reach into the access layer', async () => {
    const result = await depcruise({
      'api/src/access/index.ts': `export { read } from './records';\n`,
      'api/src/access/records.ts': `export const read = () => 1;\n`,
      'api/src/modules/a/one.ts': `import { two } from './two';\nexport const one = () => two();\n`,
      'api/src/modules/a/two.ts': `import { one } from './one';\nexport const two = () => one();\n`,
      'api/src/modules/b/x.ts': `import { y } from '../c/y';\nexport const x = () => y;\n`,
      'api/src/modules/c/y.ts': `export const y = 1;\n`,
      'api/src/modules/c/z.ts': `import { x } from '../b/x';\nexport const z = x;\n`,
      'api/src/clinical/bad.ts': `import http from 'node:http';\nimport { read } from '../access';\nexport const bad = () => [http, read];\n`,
      'api/src/modules/records/routes.ts': `import { read } from '../../access/records';\nexport const r = read;\n`,
    });
    expect(result.ok).toBe(false);
    for (const rule of [
      'no-circular',
      'no-circular-modules',
      'clinical-is-pure',
      'clinical-no-network',
      'access-layer-through-index',
    ]) {
      expect(result.output).toContain(`error ${rule}:`);
    }
  });

  it('count type-only imports: a cycle of types, a FHIR file naming a table type, a module taking AppDeps from app.ts', async () => {
    const result = await depcruise({
      'api/src/clinical/a.ts': `import type { B } from './b';\nexport interface A { b?: B }\n`,
      'api/src/clinical/b.ts': `import type { A } from './a';\nexport interface B { a?: A }\n`,
      'api/src/db/schema.ts': `export const patients = { id: 'id' };\n`,
      'api/src/fhir/resources.ts': `import type { patients } from '../db/schema';\nexport type Row = typeof patients;\n`,
      'api/src/deps.ts': `export interface AppDeps { name: string }\n`,
      'api/src/app.ts': `import type { AppDeps } from './deps';\nexport type { AppDeps };\nexport const buildApp = (d: AppDeps) => d;\n`,
      'api/src/server.ts': `import { buildApp } from './app';\nbuildApp({ name: 'api' });\n`,
      'api/src/http/route.ts': `import type { AppDeps } from '../app';\nexport const route = (d: AppDeps) => d;\n`,
    });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/error no-circular: api\/src\/clinical\/(a|b)\.ts/);
    expect(result.output).toContain('error fhir-no-database: api/src/fhir/resources.ts → api/src/db/schema.ts');
    expect(result.output).toContain('error app-is-the-root: api/src/http/route.ts → api/src/app.ts');
    // server.ts may build the app
    expect(result.output).not.toContain('api/src/server.ts → api/src/app.ts');
  });
});
