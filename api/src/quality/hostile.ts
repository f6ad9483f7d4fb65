import fc from 'fast-check';
import { BODY_LIMIT_BYTES } from '../app';
import type { Req } from './route-table';

/**
 * Hostile inputs for the fuzz suite, as small printable descriptions (fast-check shows them with
 * the seed when a property fails); `toRequest` turns a description plus a route's valid base
 * request into the request actually sent. Deep and huge values are tags, built at send time.
 */

export const NOTHING_UUID = '00000000-0000-4000-8000-000000000000';

export const HOSTILE_STRINGS = [
  "' OR 1=1 --",
  "'; DROP TABLE patients; --",
  '1; SELECT pg_sleep(5)--',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '\u202Eevil\u202Cfdp.exe', // RTL override
  'a\u200B\u200C\u200Db\uFEFF', // zero-width
  '👩‍⚕️💊🏥',
  '\uD800', // lone high surrogate
  'x\uDC00y', // lone low surrogate
  'a\u0000b', // NUL
  '\u0000',
  '\u0007\u001b[31m',
  '../../../etc/passwd',
  '%00',
  '${7*7}{{7*7}}',
  '',
  ' ',
  'null',
  '-1',
  '1e309',
  'NaN',
  '__proto__',
  'a@example.com\r\nBcc: x@example.com',
  'ß'.repeat(300),
];

/** A JSON value, or a tag built at send time: `{ $deep: n }` nested n levels, `{ $huge: n }` a string of n bytes. */
export type Hostile = unknown;

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);

export const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1e9, 1e308, -1e308, 2 ** 53 + 1, 1.5, -0.000001) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), hostileString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom({ $deep: 60 }, { $deep: 500 }) },
  { weight: 1, arbitrary: fc.constantFrom({ $huge: 100_000 }) },
);

export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

export type BodyOp =
  | { kind: 'keep' }
  | { kind: 'set'; path: string[]; value: Hostile }
  | { kind: 'delete'; path: string[] }
  | { kind: 'extra'; at: string[]; key: string; value: Hostile }
  | { kind: 'replace'; value: Hostile }
  | { kind: 'size'; which: 'just under 1 MB' | 'just over 1 MB' }
  | { kind: 'raw'; contentType: string | null; text: string };

const RAW_BODIES: { contentType: string | null; text: string }[] = [
  { contentType: 'text/plain', text: '{"email":"a@example.com"}' },
  { contentType: 'text/plain', text: 'hello' },
  { contentType: 'application/json', text: '{"a":' },
  { contentType: 'application/json', text: '{"a":1,}' },
  { contentType: 'application/json', text: '' },
  { contentType: 'application/json', text: '   ' },
  { contentType: 'application/json', text: 'null' },
  { contentType: 'application/json', text: '[]' },
  { contentType: 'application/json', text: '"string"' },
  { contentType: 'application/json', text: '123' },
  { contentType: 'application/json', text: '{"__proto__":{"isAdmin":true}}' },
  { contentType: 'application/json', text: '{"constructor":{"prototype":{"isAdmin":true}}}' },
  { contentType: 'application/json', text: '{"a":1,"a":2}' },
  { contentType: 'application/json', text: '\uFEFF{}' },
  { contentType: 'application/json; charset=utf-16', text: '{}' },
  { contentType: 'application/json; charset=latin1', text: '{}' },
  { contentType: 'application/x-www-form-urlencoded', text: 'email=a%40example.com&password=x' },
  { contentType: 'multipart/form-data; boundary=x', text: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--' },
  {
    contentType: 'application/xml',
    text: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  },
  { contentType: 'application/pdf', text: '%PDF-1.4 not really' },
  { contentType: 'text/html', text: '<script>alert(1)</script>' },
  { contentType: null, text: '{"a":1}' },
  { contentType: '', text: '{}' },
  { contentType: 'application/json', text: '{"a":"\\ud800"}' }, // escaped lone surrogate
  { contentType: 'application/json', text: '{"a":"\\u0000"}' }, // escaped NUL
];

/** Every path to a value in a JSON object (objects included), for set/delete. */
export function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
}

export function objectPathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return [prefix, ...Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => objectPathsOf(v, [...prefix, k]))];
}

export function bodyOp(base: unknown): fc.Arbitrary<BodyOp> {
  const paths = pathsOf(base);
  const objects = objectPathsOf(base);
  const arbs: fc.WeightedArbitrary<BodyOp>[] = [
    { weight: 3, arbitrary: fc.constant({ kind: 'keep' as const }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('extra' as const),
        at: objects.length ? fc.constantFrom(...objects) : fc.constant<string[]>([]),
        key: fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 8 })),
        value: hostileValue,
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('replace' as const), value: hostileValue }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<BodyOp>({ kind: 'size', which: 'just under 1 MB' }, { kind: 'size', which: 'just over 1 MB' }),
    },
    { weight: 3, arbitrary: fc.constantFrom(...RAW_BODIES).map((r): BodyOp => ({ kind: 'raw', ...r })) },
  ];
  if (paths.length) {
    arbs.push(
      {
        weight: 6,
        arbitrary: fc.record({ kind: fc.constant('set' as const), path: fc.constantFrom(...paths), value: hostileValue }),
      },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...paths) }) },
    );
  }
  return fc.oneof(...arbs);
}

export type QueryOp =
  | { kind: 'keep' }
  | { kind: 'set'; key: string; value: string }
  | { kind: 'repeat'; key: string; values: string[] }
  | { kind: 'delete'; key: string }
  | { kind: 'raw'; query: string };

const QUERY_KEYS = [
  'page',
  'limit',
  'patientId',
  'drug',
  'allergies',
  'fileType',
  'fileName',
  'expires',
  'sig',
  'name',
  'code',
  'state',
];
const QUERY_VALUES = [
  '-1',
  '0',
  '1e9',
  '1000000000',
  '1.5',
  'abc',
  '',
  '../',
  '..%2F',
  '%00',
  NOTHING_UUID,
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  'x'.repeat(5000),
];
const RAW_QUERIES = [
  '%zz',
  'page=%',
  'page[$gt]=1',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  'a=%ED%A0%80',
  'page=1&page=2&limit=1&limit=1000000000',
  '&&&==',
  '?',
];

export function queryOp(base: Req): fc.Arbitrary<QueryOp> {
  const own = [...new URL(base.url, 'http://x').searchParams.keys()];
  const key = fc.oneof(fc.constantFrom(...new Set([...own, ...QUERY_KEYS])), fc.string({ maxLength: 6 }));
  const value = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...QUERY_VALUES) }, { weight: 1, arbitrary: hostileString });
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant({ kind: 'keep' as const }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('set' as const), key, value }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('repeat' as const),
        key,
        values: fc.array(value, { minLength: 2, maxLength: 3 }),
      }),
    },
    ...(own.length
      ? [{ weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.constantFrom(...own) }) }]
      : []),
    { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES).map((query): QueryOp => ({ kind: 'raw', query })) },
  );
}

export type PathOp = { kind: 'keep' } | { kind: 'param'; index: number; raw: string };

const RAW_PARAMS = [
  'not-a-uuid',
  NOTHING_UUID,
  '00000000-0000-0000-0000-000000000000',
  '%00',
  'a%00b',
  '..%2F',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%ED%A0%80',
  '%zz',
  '%',
  '%25',
  'x'.repeat(5000),
  '1',
  '-1',
  "'%20OR%201%3D1%20--",
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  'DROP%20TABLE%20patients',
];

/** Indexes of the `:param` segments of a route pattern. */
export function paramIndexes(route: string): number[] {
  const path = route.split(' ')[1];
  return path
    .split('/')
    .map((seg, i) => (seg.startsWith(':') ? i : -1))
    .filter((i) => i >= 0);
}

export function pathOp(route: string, extraIds: string[]): fc.Arbitrary<PathOp> {
  const indexes = paramIndexes(route);
  if (!indexes.length) return fc.constant({ kind: 'keep' as const });
  const raw = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...RAW_PARAMS, ...extraIds) },
    { weight: 1, arbitrary: hostileString.map(encodeLoosely) },
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'keep' as const }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('param' as const), index: fc.constantFrom(...indexes), raw }) },
  );
}

/** encodeURIComponent, except that lone surrogates (which it refuses) go out as their raw UTF-16 bytes' escapes. */
export function encodeLoosely(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...s]
      .map((ch) => {
        try {
          return encodeURIComponent(ch);
        } catch {
          const code = ch.charCodeAt(0);
          return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
        }
      })
      .join('');
  }
}

export const AUTH_GARBAGE = [
  'Bearer ',
  'bearer ' + 'a'.repeat(43),
  'Bearer ' + 'a'.repeat(10_000),
  "Bearer ' OR 1=1 --",
  'Bearer a b c',
  'Token xyz',
  'Bearer %00',
];

// ---------------------------------------------------------------------------------------------

function build(value: Hostile): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as { $deep?: number; $huge?: number };
    if (typeof v.$deep === 'number') {
      let nested: unknown = 'bottom';
      for (let i = 0; i < v.$deep; i++) nested = { a: nested, b: [nested === 'bottom' ? 1 : 2] };
      return nested;
    }
    if (typeof v.$huge === 'number') return 'x'.repeat(v.$huge);
  }
  return value;
}

/** Sets an own property even for `__proto__` (so JSON.stringify writes it). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function at(obj: unknown, path: string[]): Record<string, unknown> | undefined {
  let cur = obj;
  for (const k of path) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur && typeof cur === 'object' && !Array.isArray(cur) ? (cur as Record<string, unknown>) : undefined;
}

function firstStringPath(value: unknown): string[] | undefined {
  return pathsOf(value).find((p) => typeof at(value, p.slice(0, -1))?.[p[p.length - 1]] === 'string');
}

export interface Case {
  caller: 'anonymous' | 'patient' | 'doctor';
  auth?: string;
  body: BodyOp;
  query: QueryOp;
  path: PathOp;
}

/** The request sent for a case: the base request with the case's changes. */
export function toRequest(base: Req, cs: Case, token: string | undefined): Req & { payload?: string | Buffer } {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(base.headers ?? {})) headers[k.toLowerCase()] = v;
  if (token) headers.authorization = `Bearer ${token}`;
  else if (cs.auth !== undefined) headers.authorization = cs.auth;

  // Path
  const q = base.url.indexOf('?');
  let pathPart = q < 0 ? base.url : base.url.slice(0, q);
  let query = q < 0 ? '' : base.url.slice(q + 1);
  if (cs.path.kind === 'param') {
    const segs = pathPart.split('/');
    segs[cs.path.index] = cs.path.raw;
    pathPart = segs.join('/');
  }

  // Query
  const pairs = query ? query.split('&').map((p) => p.split('=') as [string, string?]) : [];
  const qop = cs.query;
  if (qop.kind === 'set') {
    const rest = pairs.filter(([k]) => k !== encodeLoosely(qop.key));
    query = [...rest.map((p) => p.join('=')), `${encodeLoosely(qop.key)}=${encodeLoosely(qop.value)}`].join('&');
  } else if (qop.kind === 'repeat') {
    query = [...pairs.map((p) => p.join('=')), ...qop.values.map((v) => `${encodeLoosely(qop.key)}=${encodeLoosely(v)}`)].join(
      '&',
    );
  } else if (qop.kind === 'delete') {
    query = pairs
      .filter(([k]) => k !== qop.key)
      .map((p) => p.join('='))
      .join('&');
  } else if (qop.kind === 'raw') {
    query = query ? `${query}&${qop.query}` : qop.query;
  }
  const url = query ? `${pathPart}?${query}` : pathPart;

  // Body
  const op = cs.body;
  const baseBody = base.payload;
  if (op.kind === 'keep') return { ...base, url, headers, payload: base.payload as string | Buffer | undefined };
  if (Buffer.isBuffer(baseBody) && op.kind !== 'raw' && op.kind !== 'size' && op.kind !== 'replace') {
    return { ...base, url, headers, payload: baseBody };
  }
  if (op.kind === 'raw') {
    delete headers['content-type'];
    if (op.contentType !== null) headers['content-type'] = op.contentType;
    return { method: base.method, url, headers, payload: op.text };
  }
  let body: unknown = structuredClone(baseBody ?? {});
  if (op.kind === 'replace') body = build(op.value);
  else if (op.kind === 'set') {
    const parent = at(body, op.path.slice(0, -1));
    if (parent) setOwn(parent, op.path[op.path.length - 1], build(op.value));
  } else if (op.kind === 'delete') {
    const parent = at(body, op.path.slice(0, -1));
    if (parent) delete parent[op.path[op.path.length - 1]];
  } else if (op.kind === 'extra') {
    const parent = at(body, op.at) ?? (body as Record<string, unknown>);
    if (parent && typeof parent === 'object') setOwn(parent, op.key, build(op.value));
  } else if (op.kind === 'size') {
    const target = op.which === 'just under 1 MB' ? BODY_LIMIT_BYTES - 64 : BODY_LIMIT_BYTES + 64;
    const where = firstStringPath(body);
    const parent = where ? at(body, where.slice(0, -1))! : (body as Record<string, unknown>);
    const key = where ? where[where.length - 1] : 'pad';
    if (!parent || typeof parent !== 'object') body = { pad: '' };
    setOwn((parent ?? body) as Record<string, unknown>, key, '');
    const fill = target - Buffer.byteLength(JSON.stringify(body));
    setOwn((parent ?? body) as Record<string, unknown>, key, 'x'.repeat(Math.max(0, fill)));
  }
  headers['content-type'] = 'application/json';
  return { method: base.method, url, headers, payload: JSON.stringify(body) ?? 'null' };
}
