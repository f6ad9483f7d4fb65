import { z } from 'zod';

// The pages' CSP allows no eval (scripts/web-server.mjs), and zod's probe for `new Function` is
// itself a CSP violation. Set here, first thing in shared-contracts: now that each app may load its
// own shared-contracts copy (shared by version), a schema can be parsed before shared-auth's
// config.ts has run. The setting is global (globalThis.__zod_globalConfig), for every copy of zod.
z.config({ jitless: true });
