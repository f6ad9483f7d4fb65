// A local HTTP server standing in for the api at the network edge of front-end unit tests:
// it records what the real client sent and answers what the test scripted.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}
type Reply = { status: number; body?: unknown };
type Handler = (req: Recorded) => Reply;

export async function startFakeApi(routes: Record<string, Reply | Handler>) {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const cors = {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Headers': 'authorization, content-type',
        'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE',
      };
      if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
      const rec: Recorded = {
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: !raw ? undefined : req.headers['content-type']?.includes('json') ? JSON.parse(raw) : raw,
      };
      requests.push(rec);
      const route = routes[`${req.method} ${req.url!.split('?')[0]}`];
      const reply = typeof route === 'function' ? route(rec) : (route ?? { status: 404, body: { error: 'Not found' } });
      res.writeHead(reply.status, { ...cors, 'Content-Type': 'application/json' });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}
