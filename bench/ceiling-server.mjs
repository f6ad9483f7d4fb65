// The one-query ceiling for the API figures: Fastify (the api's own version) answering
// GET /patients/:id with ONE query by primary key on the same database the api under test uses —
// no auth, no hooks, no ORM. What an endpoint could do at best if it made a single round trip.
//   node bench/ceiling-server.mjs <port> --pg <url>       pg Pool (max 10, like the api), a named
//                                                         prepared statement on the bench's patients
//   node bench/ceiling-server.mjs <port> --pglite <dir>   PGlite in this process (the api's engine,
//                                                         in its own temp folder: the api holds its
//                                                         own folder exclusively), a one-row table
// Listens on 127.0.0.1 only; GET /health answers without a query.
import Fastify from 'fastify';

const [portArg, kind, target] = process.argv.slice(2);
const port = Number(portArg ?? 4719);
const ID = '00000000-0000-4000-8000-000000000001';

let query;
let close;
if (kind === '--pg') {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: target, max: 10 });
  const statement = { name: 'ceiling_patient_by_id', text: 'select id, name, email from patients where id = $1' };
  query = async (id) => (await pool.query({ ...statement, values: [id] })).rows[0];
  close = () => pool.end();
} else if (kind === '--pglite') {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(target);
  await db.exec(
    'create table if not exists patients (id uuid primary key, name text not null, email text not null);' +
      `insert into patients values ('${ID}', 'Bench Patient', 'bench@bench.example') on conflict do nothing;`,
  );
  query = async (id) => (await db.query('select id, name, email from patients where id = $1', [id])).rows[0];
  close = () => db.close();
} else throw new Error('usage: ceiling-server.mjs <port> --pg <url> | --pglite <dir>');

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
app.get('/patients/:id', async (request, reply) => {
  const row = await query(request.params.id);
  if (!row) return reply.code(404).send({ message: 'Not Found' });
  return row;
});
await app.listen({ port, host: '127.0.0.1' });
const stop = () =>
  app
    .close()
    .then(close)
    .then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
