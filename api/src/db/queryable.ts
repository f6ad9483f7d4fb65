import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

// The query types, beside the schema they are typed by: code below the adapters (lib/, db/) takes
// a Queryable without importing the adapter that opens the database (adapters/db.ts).

/** The query interface the modules use; the same for PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; accepted wherever a Db is (a transaction can do what a Db can). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Queryable = Db | Tx;
