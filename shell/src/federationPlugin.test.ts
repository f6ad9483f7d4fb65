import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  REMOTE_DEADLINE_MS,
  careloopFederationPlugin,
  fetchWithRetry,
  isRemoteLoadFailure,
  withRetries,
} from './federationPlugin';

// A real local HTTP server whose answers each test scripts: the fetches are real, the delays short.
let server: Server;
let base: string;
let answer: (req: IncomingMessage, res: ServerResponse, n: number) => void;
let requests = 0;
const sockets = new Set<import('node:net').Socket>();

beforeAll(async () => {
  server = createServer((req, res) => answer(req, res, ++requests));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  requests = 0;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const quick = { deadlineMs: 2000, delaysMs: [10, 20] };

test('a manifest fetch that fails twice with 503 is tried again and answers', async () => {
  answer = (_req, res, n) => (n < 3 ? res.writeHead(503).end() : res.writeHead(200).end('{"ok":true}'));
  const res = await fetchWithRetry(`${base}/mf-manifest.json`, {}, quick);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ ok: true });
  expect(requests).toBe(3);
});

test('a dropped connection is tried again', async () => {
  answer = (req, res, n) => (n === 1 ? req.socket.destroy() : res.writeHead(200).end('{}'));
  const res = await fetchWithRetry(`${base}/x`, {}, quick);
  expect(res.status).toBe(200);
  expect(requests).toBe(2);
});

test('tries are bounded: the last 503 is handed back after three', async () => {
  answer = (_req, res) => res.writeHead(503).end();
  const res = await fetchWithRetry(`${base}/x`, {}, quick);
  expect(res.status).toBe(503);
  expect(requests).toBe(3);
});

test('a missing file is not asked for again', async () => {
  answer = (_req, res) => res.writeHead(404).end();
  const res = await fetchWithRetry(`${base}/x`, {}, quick);
  expect(res.status).toBe(404);
  expect(requests).toBe(1);
});

test('a server that accepts and never answers fails at the deadline', async () => {
  answer = () => undefined; // never answers
  await expect(fetchWithRetry(`${base}/x`, {}, { deadlineMs: 300, delaysMs: [10] })).rejects.toThrow(
    /did not answer within 300 ms/,
  );
});

test('a body that stalls after the headers fails at the deadline too', async () => {
  answer = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"half":');
  };
  await expect(fetchWithRetry(`${base}/x`, {}, { deadlineMs: 300, delaysMs: [] })).rejects.toThrow(/did not answer/);
});

test('withRetries tries a failing load again, then gives up with its error', async () => {
  let calls = 0;
  await expect(
    withRetries(async () => (++calls < 3 ? Promise.reject(new Error('ChunkLoadError')) : 'view'), { delaysMs: [1, 1] }),
  ).resolves.toBe('view');
  calls = 0;
  await expect(withRetries(() => Promise.reject(new Error(`ChunkLoadError ${++calls}`)), { delaysMs: [1, 1] })).rejects.toThrow(
    'ChunkLoadError 3',
  );
});

test('the plugin falls back to a marked module when loadRemote fails, and leaves other stages alone', async () => {
  const plugin = careloopFederationPlugin();
  const error = new Error('remote down');
  const onLoad = await plugin.errorLoadRemote!({ id: 'remote_patient/routes', error, lifecycle: 'onLoad' } as never);
  expect(isRemoteLoadFailure(onLoad)).toBe(true);
  expect((onLoad as { remoteLoadFailed: unknown }).remoteLoadFailed).toBe(error);
  expect(await plugin.errorLoadRemote!({ id: 'x', error, lifecycle: 'afterResolve' } as never)).toBeUndefined();
});

test('remote entry scripts get the deadline, with the attributes the runtime asked for', () => {
  const plugin = careloopFederationPlugin();
  const answer = plugin.createScript!({
    url: 'https://r.example.org/remoteEntry.js',
    attrs: { fetchpriority: 'high', async: true },
  } as never) as {
    script: HTMLScriptElement;
    timeout: number;
  };
  expect(answer.timeout).toBe(REMOTE_DEADLINE_MS);
  expect(answer.script.src).toBe('https://r.example.org/remoteEntry.js');
  expect(answer.script.getAttribute('fetchpriority')).toBe('high');
  expect(answer.script.async).toBe(true);
});

test('withRetries gives up at its deadline, and starts no try after it', async () => {
  let calls = 0;
  const started = Date.now();
  await expect(withRetries(() => (++calls, new Promise<never>(() => {})), { deadlineMs: 200 })).rejects.toThrow(
    'did not load within 200 ms',
  );
  expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  calls = 0;
  // Fake timers: "no 3rd" is checked over a minute of them, not by waiting.
  jest.useFakeTimers();
  try {
    // Failing after 150 ms each: the 2nd try (at 160 ms) fails after the deadline; no 3rd.
    const outcome = expect(
      withRetries(() => (++calls, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('chunk')), 150))), {
        delaysMs: [10, 10],
        deadlineMs: 200,
      }),
    ).rejects.toThrow('did not load within 200 ms');
    await jest.advanceTimersByTimeAsync(60_000);
    await outcome;
    expect(calls).toBe(2);
  } finally {
    jest.useRealTimers();
  }
});

test('withRetries does not try again a failure no try can mend', async () => {
  let calls = 0;
  await expect(
    withRetries(() => (++calls, Promise.reject(new Error('mismatch'))), { delaysMs: [1, 1], final: () => true }),
  ).rejects.toThrow('mismatch');
  expect(calls).toBe(1);
});
