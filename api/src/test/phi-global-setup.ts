import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOG_DIR_ENV } from './phi-in-logs';

/** The api suite's test apps log into this folder; phi-global-teardown.ts checks it (the workers inherit the variable). */
export default function setup(): void {
  process.env[LOG_DIR_ENV] = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-api-logs-'));
}
