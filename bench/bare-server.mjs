// The machine's ceiling for the API figures: Fastify (the api's own version) answering a constant,
// no database, no auth, no hooks. `node bench/bare-server.mjs <port>`; listens on 127.0.0.1 only.
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 4719);
const app = Fastify({ logger: false });
const body = { status: 'ok' };
app.get('/', async () => body);
app.get('/health', async () => body);
await app.listen({ port, host: '127.0.0.1' });
const stop = () => app.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
