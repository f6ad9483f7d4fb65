import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** oauth2-mock-server in a child process (see oauth-mock-server.mjs). */
export interface OAuthMock {
  issuer: string;
  /** Claims for the next tokens; null removes a claim the mock would add itself. */
  setClaims(claims: Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

export async function startOAuthMock(): Promise<OAuthMock> {
  const child: ChildProcess = fork(path.join(__dirname, 'oauth-mock-server.mjs'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  const issuer = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`oauth mock exited with ${code}`)));
    child.once('message', (m) => resolve((m as { issuer: string }).issuer));
  });
  let seq = 0;
  return {
    issuer,
    setClaims(claims) {
      const id = ++seq;
      return new Promise<void>((resolve) => {
        const onMessage = (m: unknown) => {
          if ((m as { ack?: number }).ack === id) {
            child.off('message', onMessage);
            resolve();
          }
        };
        child.on('message', onMessage);
        child.send({ claims, id });
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ stop: true });
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]);
      if (child.exitCode === null) child.kill();
    },
  };
}
