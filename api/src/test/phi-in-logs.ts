import fs from 'node:fs';
import path from 'node:path';

/*
 * The PHI detector the api suite's log output goes through (phi-global-teardown.ts). While the suite
 * runs (CARELOOP_TEST_LOG_DIR set by phi-global-setup.ts), every test app logs at the shipped level
 * into that folder, and every name, e-mail, file name and free text a test sends it is noted there
 * too; at the end no noted value, and no e-mail address at all, may appear in a log line.
 */

export const LOG_DIR_ENV = 'CARELOOP_TEST_LOG_DIR';

/** Body and query keys whose values are never data: what they hold is allowed in a log line. */
const NOT_DATA = new Set([
  'fileType',
  'role',
  'status',
  'type',
  'kind',
  'page',
  'limit',
  'method',
  'code_challenge_method',
  'grant_type',
  'response_type',
  'scope',
]);

// Starts only where a run of address characters starts: linear, even on a megabyte of letters.
const EMAIL = /(?<![a-z0-9._%+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/i;
const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILE_NAME = /^[^\s/]+\.[a-z0-9]{2,5}$/i;
const FILE_NAME_EXTENSION = /\.[a-z0-9]{2,5}$/i;

/**
 * The values of a request's body or query that are a person's data: e-mail addresses, and text of two
 * words or more (names, free text) or a file name with a word in it (not `a.pdf`: "not a PDF" is no
 * leak); not ids, dates, codes or tokens.
 */
export function phiOf(value: unknown, key = ''): string[] {
  if (typeof value === 'string') {
    if (NOT_DATA.has(key) || UUID.test(value.trim())) return [];
    const letterWords = value.match(/\p{L}{2,}/gu)?.length ?? 0;
    const data =
      EMAIL.test(value) ||
      (/\s/.test(value.trim()) && letterWords >= 2) ||
      (FILE_NAME.test(value) && /\p{L}{3,}/u.test(value.replace(FILE_NAME_EXTENSION, '')));
    return data ? [value] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item) => phiOf(item, key));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => phiOf(v, k));
  return [];
}

export interface Finding {
  line: string;
  value: string;
}

/**
 * Every log line that holds a noted value (its words in order, whatever the punctuation or case) or
 * any e-mail address. One pass over the log: values are found by their first two words.
 */
export function findPhi(lines: Iterable<string>, noted: Iterable<string>): Finding[] {
  const byFirstPair = new Map<string, { value: string; words: string[] }[]>();
  for (const value of new Set(noted)) {
    const w = words(value);
    if (w.length < 2) continue; // an e-mail alone is caught by its shape
    const pair = `${w[0]} ${w[1]}`;
    byFirstPair.set(pair, [...(byFirstPair.get(pair) ?? []), { value, words: w }]);
  }
  const findings: Finding[] = [];
  for (const line of lines) {
    const email = line.match(EMAIL);
    if (email) {
      findings.push({ line, value: email[0] });
      continue;
    }
    const w = words(line);
    for (let i = 0; i + 1 < w.length; i++) {
      const hit = byFirstPair.get(`${w[i]} ${w[i + 1]}`)?.find((c) => c.words.every((word, j) => w[i + j] === word));
      if (hit) {
        findings.push({ line, value: hit.value });
        break;
      }
    }
  }
  return findings;
}

/** Appends to this process's log and noted-values files in the suite's folder. */
export function captureFiles(dir: string) {
  const file = (suffix: string) => path.join(dir, `${process.pid}.${suffix}`);
  return {
    log(line: string) {
      fs.appendFileSync(file('log'), line.endsWith('\n') ? line : `${line}\n`);
    },
    note(values: string[]) {
      if (values.length > 0) fs.appendFileSync(file('phi'), values.map((v) => `${JSON.stringify(v)}\n`).join(''));
    },
  };
}

/** Reads the suite's folder: every log line and every noted value. */
export function readCapture(dir: string): { lines: string[]; noted: string[] } {
  const lines: string[] = [];
  const noted: string[] = [];
  for (const file of fs.readdirSync(dir)) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    if (file.endsWith('.log')) lines.push(...text.split('\n').filter(Boolean));
    if (file.endsWith('.phi'))
      noted.push(
        ...text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as string),
      );
  }
  return { lines, noted };
}
