import type { Clock } from './adapters/clock';
import type { DbAdapter } from './adapters/db';
import type { Mailer } from './adapters/mail';
import type { FileStorage } from './adapters/storage';
import type { Config } from './config';
import type { SecretBox } from './lib/secret-box';

/** What the app is built from (a leaf module, so route modules never import app.ts). */
export interface AppDeps {
  db: DbAdapter;
  clock: Clock;
  config: Config;
  /** Outgoing e-mail (adapters/mail.ts); tests read the outbox it writes. */
  mailer: Mailer;
  /** Seals secrets stored in the database (two-factor secrets); see lib/secret-box.ts. */
  secretBox: SecretBox;
  /** Medical PDFs: local disk (URLs served by this api) or S3 (presigned URLs); adapters/storage.ts. */
  storage: FileStorage;
  /** Outgoing HTTP (the optional summary model); default globalThis.fetch. Tests inject or point it at a local server. */
  fetch?: typeof globalThis.fetch;
}
