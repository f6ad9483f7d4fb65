import { spawn } from 'node:child_process';
import path from 'node:path';

const API_DIR = path.resolve(__dirname, '../..');
const SERVER = path.resolve(__dirname, '../server.ts');

/** The real api (server.ts through ts-node, CommonJS as tsc builds it) as a child process, listening. */
export interface SourceServer {
  exited: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM (if still running), then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts server.ts on 127.0.0.1:`port` with the embedded defaults (no DATABASE_URL, keys from the data
 * folder, quiet logs, a cheap password hash) and `env` over them; `preload`: modules `-r` loads first.
 * Resolves once it says it listens; rejects with its stderr if it exits before.
 */
export async function startSourceServer({
  port,
  env,
  baseEnv = process.env,
  preload = [],
}: {
  port: number;
  env: Record<string, string>;
  baseEnv?: NodeJS.ProcessEnv;
  preload?: string[];
}): Promise<SourceServer> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register', ...preload.flatMap((p) => ['-r', p]), SERVER], {
    cwd: API_DIR,
    env: {
      ...baseEnv,
      TS_NODE_TRANSPILE_ONLY: 'true',
      TS_NODE_PROJECT: path.join(API_DIR, 'tsconfig.json'),
      TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'CommonJS', moduleResolution: 'Node10' }),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      ENCRYPTION_KEY: '',
      FILES_SIGNING_KEY: '',
      LOG_LEVEL: 'silent',
      PASSWORD_HASH_COST: '10',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      if (stdout.includes('CareLoop api listening')) resolve();
    });
    void exited.then((code) => reject(new Error(`the api exited (${code}) before listening: ${stderr}`)));
  });
  return {
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
