import type { Readable } from 'node:stream';
import type { Role } from '@careloop/shared-contracts';

/*
 * Where medical PDFs live. Two implementations behind one interface:
 *   - local disk (default): `<dataDir>/files/<key>`, URLs served by the api itself and signed with
 *     HMAC-SHA256 (modules/files/local-routes.ts checks them through the `localServer` capability, streams and checks the upload);
 *   - S3 (S3_* set): presigned PUT/GET URLs; S3 cannot look at the bytes it receives, so an object
 *     is verified (size, `%PDF-`) before its row is ever listed.
 * Keys are made by the server (`<patientId>/<uuid>.pdf`), never from a file name.
 */

export const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const KEY_PATTERN =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.pdf$/;

/** True for a key of the form the server makes; anything else is refused before touching storage. */
export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export type VerifyResult = { status: 'stored'; size: number } | { status: 'missing' } | { status: 'rejected'; reason: string };

export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Local disk checks size and type while receiving; S3 needs verify() before a file is listed. */
  readonly verifiesOnReceipt: boolean;
  /** A URL the browser PUTs the file to (Content-Type must be `contentType`). */
  createUploadUrl(key: string, opts: { contentType: string; maxBytes: number; expiresInSeconds: number }): Promise<string>;
  /**
   * A URL that serves the file inline as application/pdf under `fileName`. `issuedTo` is who asked
   * for it: URLs this api serves itself carry it signed, so their download is audited as that caller's read.
   */
  createDownloadUrl(key: string, opts: { fileName: string; expiresInSeconds: number; issuedTo?: UrlIssuedTo }): Promise<string>;
  /** Is the object there, within the limit, and a PDF? A rejected object is deleted. */
  verify(key: string, opts: { maxBytes: number }): Promise<VerifyResult>;
  delete(key: string): Promise<void>;
  /** The stored bytes (a verified file, within the upload limit): what FHIR's Binary read serves. */
  read(key: string): Promise<Buffer>;
  /** Present when the api itself serves this storage's URLs (local disk): app.ts mounts its routes then. */
  readonly localServer?: LocalFileServer;
}

/** The caller a download URL was issued to (an account and its role). */
export interface UrlIssuedTo {
  accountId: string;
  role: Role;
}

/** The query of a URL signed by the api. `by` names who a download URL was issued to. */
export interface SignedQuery {
  expires?: string;
  sig?: string;
  name?: string;
  by?: string;
}

export type SignedMethod = 'PUT' | 'GET';

/** An upload received and checked, in its temp file until placed (LocalDiskStorage.receive). */
export interface ReceivedUpload {
  readonly size: number;
  /** Moves the file to its final place (inside the transaction that stores its row). */
  place(): Promise<void>;
  /** Takes a placed file back (that transaction failed). */
  unplace(): Promise<void>;
  /** Removes the temp file if it is still there. */
  discard(): Promise<void>;
}

/** A storage whose upload and download URLs the api serves (modules/files/local-routes.ts). */
export interface LocalFileServer {
  /** 'ok', 'expired' or 'invalid'; for GET the name and `by` are covered by the signature. */
  checkSignature(method: SignedMethod, key: string, query: SignedQuery): 'ok' | 'expired' | 'invalid';
  /** Who a (signature-checked) download URL was issued to; undefined when it names nobody. */
  issuedTo(query: SignedQuery): UrlIssuedTo | undefined;
  pathOf(key: string): string;
  receive(key: string, body: Readable, maxBytes: number): Promise<ReceivedUpload>;
  sweepOrphans(
    olderThan: Date,
    isStored: (keys: string[]) => Promise<Set<string>>,
  ): Promise<{ parts: number; unreferenced: number }>;
  delete(key: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// File names and Content-Disposition

// Controls (C0, DEL, C1), bidi overrides/isolates and line/paragraph separators, quotes and
// backslashes, and characters no file system takes.
const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"\\<>:|?*]/g;
const MAX_NAME = 255;

/**
 * The display name kept for an upload: the last path segment only, without control, quote or
 * bidi characters, whitespace collapsed, no leading dots, ending in `.pdf`, at most 255 characters.
 * It is only ever shown (Content-Disposition, lists): storage keys never come from it.
 */
export function safeFileName(input: string): string {
  let name = input.normalize('NFC');
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  name = name
    .replace(UNSAFE_NAME_CHARS, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '');
  let base = name.replace(/\.pdf$/i, '').trim();
  if (!base) base = 'document';
  base = [...base]
    .slice(0, MAX_NAME - 4)
    .join('')
    .trim();
  return `${base}.pdf`;
}

/** RFC 6266 `inline` disposition: an ASCII fallback `filename`, plus `filename*` (RFC 8187) when needed. */
export function contentDisposition(fileName: string): string {
  const name = safeFileName(fileName);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  if (ascii === name) return `inline; filename="${ascii}"`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
