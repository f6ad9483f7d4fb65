import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w api` writes SQL migrations for schema changes into api/drizzle/.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
