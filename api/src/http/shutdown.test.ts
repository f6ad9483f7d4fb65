import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { closeWithin, SHUTTING_DOWN_MESSAGE, trackRequestsForShutdown } from './shutdown';

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** One request on its own keep-alive agent; resolves with the answer, or rejects if the connection is cut. */
function request(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const agent = new http.Agent({ keepAlive: true });
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (d) => (body += String(d)));
      res.on('end', () => {
        agent.destroy();
        resolve({ status: res.statusCode!, connection: res.headers.connection, body });
      });
      res.on('error', reject);
    });
    req.on('error', (err) => {
      agent.destroy();
      reject(err);
    });
  });
}

describe('closeWithin', () => {
  let app: FastifyInstance;
  let port: number;
  let release: () => void;
  let arrived: Promise<void>;

  beforeEach(async () => {
    let arrive: () => void;
    arrived = new Promise((resolve) => (arrive = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    app = Fastify({ logger: false });
    trackRequestsForShutdown(app);
    // Answers only once the test releases it.
    app.get('/slow', async () => {
      arrive();
      await released;
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterEach(() => release());

  it('lets a request in flight finish within the grace period, its answer marked Connection: close', async () => {
    const answer = request(port, '/slow');
    await arrived;
    const closing = closeWithin(app, 30_000);
    release();
    expect(await answer).toEqual({ status: 200, connection: 'close', body: '{"ok":true}' });
    expect(await closing).toBe('drained');
  });

  it('answers a request still running at the deadline 503 with a JSON error, then closes', async () => {
    const answer = request(port, '/slow');
    await arrived;
    expect(await closeWithin(app, 200)).toBe('cut');
    const got = await answer;
    expect({ status: got.status, connection: got.connection }).toEqual({ status: 503, connection: 'close' });
    expect(JSON.parse(got.body)).toEqual({ error: SHUTTING_DOWN_MESSAGE });
  });
});
