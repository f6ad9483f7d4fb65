import fs from 'node:fs';
import path from 'node:path';
import * as ts from 'typescript';

/*
 * Deny by default: patients' data (the tables below) is queried only inside src/access, whose
 * index.ts exports checked, audited operations. This checker reads a file's imports and its
 * `sql` templates; access-boundary.test.ts runs it over every product file of src.
 */

/**
 * The drizzle tables holding patients' data (db/schema.ts), and their SQL names; with the
 * notifications about it and doctors' drafts (who may read or mark which is decided in src/access too).
 */
export const PATIENT_TABLES = [
  'medicalRecords',
  'prescriptions',
  'medicalFiles',
  'reminders',
  'reminderDeliveries',
  'assignments',
  'allergyIntolerances',
  'notifications',
  'notificationPreferences',
  'drafts',
] as const;
const PATIENT_TABLE_SQL =
  /\b(medical_records|prescriptions|medical_files|reminders|reminder_deliveries|assignments|allergy_intolerances|notifications|notification_preferences|drafts)\b/;

/** Files that may touch the tables: the access layer, the schema itself, and the db adapter (drizzle's schema registry). */
export function isExempt(relativePath: string): boolean {
  const p = relativePath.split(path.sep).join('/');
  return (
    p.startsWith('access/') ||
    p === 'db/schema.ts' ||
    p === 'adapters/db.ts' ||
    // tests set up and inspect rows directly; they are not routes
    p.endsWith('.test.ts') ||
    p.startsWith('test/') ||
    p.startsWith('quality/')
  );
}

/** What a file (path relative to api/src) does that only the access layer may do; [] when nothing. */
export function accessViolations(relativePath: string, source: string): string[] {
  const file = ts.createSourceFile(relativePath, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const dir = path.posix.dirname(relativePath.split(path.sep).join('/'));
  const found: string[] = [];
  const target = (specifier: string) =>
    specifier.startsWith('.') ? path.posix.normalize(path.posix.join(dir, specifier)) : specifier;

  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const to = target(node.moduleSpecifier.text).replace(/\.(ts|js)$/, '');
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly : node.isTypeOnly;
      if (to === 'db/schema' && !typeOnly) {
        const clause = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
        if (!clause || ts.isNamespaceImport(clause) || ts.isNamespaceExport(clause)) {
          found.push('imports all of db/schema (patient tables included)');
        } else {
          for (const el of clause.elements) {
            const name = (el.propertyName ?? el.name).text;
            if (!el.isTypeOnly && (PATIENT_TABLES as readonly string[]).includes(name))
              found.push(`imports the patient table ${name} from db/schema`);
          }
        }
      }
      if (to.startsWith('access/') && to !== 'access/index') found.push(`imports ${to}: use what src/access/index.ts exports`);
    }
    if (
      ts.isTaggedTemplateExpression(node) &&
      node.tag.getText(file) === 'sql' &&
      PATIENT_TABLE_SQL.test(node.template.getText(file))
    ) {
      found.push(`queries a patient table in SQL: ${node.template.getText(file).slice(0, 60)}`);
    }
    // drizzle's relational API: db.query.medicalRecords.findMany(…)
    if (
      ts.isPropertyAccessExpression(node) &&
      (PATIENT_TABLES as readonly string[]).includes(node.name.text) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'query'
    ) {
      found.push(`queries ${node.name.text} through db.query`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every violation under a source root, as `file: what`. */
export function scanSources(root: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const rel = path.relative(root, path.join(entry.parentPath, entry.name));
    if (isExempt(rel)) continue;
    for (const v of accessViolations(rel, fs.readFileSync(path.join(root, rel), 'utf8'))) out.push(`${rel}: ${v}`);
  }
  return out.sort();
}
