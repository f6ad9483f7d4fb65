import fs from 'node:fs';
import { findPhi, LOG_DIR_ENV, readCapture } from './phi-in-logs';

/**
 * The whole api suite's log output through the PHI detector: no name, e-mail, file name or free text
 * a test sent may appear in a log line (phi-in-logs.ts). Fails the run otherwise.
 */
export default function teardown(): void {
  const dir = process.env[LOG_DIR_ENV];
  if (!dir) return;
  try {
    const { lines, noted } = readCapture(dir);
    const findings = findPhi(lines, noted);
    console.log(
      `\nPHI in the api's logs: ${lines.length} log lines checked against ${new Set(noted).size} values the tests sent`,
    );
    if (findings.length > 0) {
      const shown = findings.slice(0, 10).map((f) => `  ${JSON.stringify(f.value)} in ${f.line.slice(0, 400)}`);
      throw new Error(`${findings.length} log line(s) hold patient data:\n${shown.join('\n')}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
