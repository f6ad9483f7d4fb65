import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** Longest a rate-limit check waits for Redis before counting in memory instead. */
export const REDIS_ANSWER_TIMEOUT_MS = 200;
/** While Redis is out, how often a PING asks whether it answers again. */
const PROBE_INTERVAL_MS = 1000;

type Result = { current: number; ttl: number };
type Callback = (err: Error | null, result?: Result) => void;
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read?(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: RouteOptions): Store;
}

// The plugin's own stores (left out of its typings): with Redis answering the counts are exactly
// those of `redis:` alone, and in an outage those of the in-memory limiter used without REDIS_URL.
/* eslint-disable @typescript-eslint/no-require-imports */
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding: boolean | undefined,
  exponentialBackoff: boolean | undefined,
  cache?: number,
) => Store;
const RedisStore = require('@fastify/rate-limit/store/RedisStore') as new (
  continueExceeding: boolean | undefined,
  exponentialBackoff: boolean | undefined,
  redis: Redis,
  key?: string,
) => Store;
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Whether Redis is usable. One warning when it stops answering, one line when it is back: an
 * outage is logged once, not once per request.
 */
export class RedisHealth {
  private down = false;
  private lastProbe = 0;
  private probing = false;

  constructor(
    private readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
  ) {}

  get usable(): boolean {
    if (this.down) this.probe();
    return !this.down;
  }

  markDown(err: Error): void {
    if (this.down) return;
    this.down = true;
    this.lastProbe = Date.now();
    // Without the URL (it may carry a password).
    this.log.warn(
      { err: { message: err.message } },
      'rate-limit store (Redis) not answering: counting in memory, per process, until it answers again',
    );
  }

  markUp(): void {
    if (!this.down) return;
    this.down = false;
    this.log.info('rate-limit store (Redis) answers again: counting in Redis');
  }

  // In the background, never on a request's path: the request is counted in memory meanwhile.
  private probe(): void {
    if (this.probing || Date.now() - this.lastProbe < PROBE_INTERVAL_MS) return;
    this.probing = true;
    this.lastProbe = Date.now();
    withTimeout(this.redis.ping())
      .then(
        () => this.markUp(),
        () => undefined,
      )
      .finally(() => {
        this.probing = false;
        this.lastProbe = Date.now();
      });
  }
}

/** The promise, or a rejection after `ms` (REDIS_ANSWER_TIMEOUT_MS by default). */
export function withTimeout<T>(promise: Promise<T>, ms = REDIS_ANSWER_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    // setImmediate: after a busy event loop, an answer already on the socket is read (poll phase)
    // before the timeout counts, so a slow process is not mistaken for a Redis outage.
    timer = setTimeout(() => setImmediate(() => reject(new Error(`Redis did not answer within ${ms} ms`))), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

class FallbackStore implements Store {
  constructor(
    private readonly redis: Store,
    private readonly memory: Store,
    private readonly health: RedisHealth,
  ) {}

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.call('incr', key, cb, timeWindow, max);
  }

  read(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.call('read', key, cb, timeWindow, max);
  }

  child(routeOptions: RouteOptions): Store {
    return new FallbackStore(this.redis.child(routeOptions), this.memory.child(routeOptions), this.health);
  }

  private call(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number): void {
    const inMemory = () => this.memory[method]!(key, cb, timeWindow, max);
    if (!this.health.usable) return inMemory();
    withTimeout(
      new Promise<Result>((resolve, reject) =>
        this.redis[method]!(
          key,
          (err, res) => (err || !res ? reject(err ?? new Error('no answer')) : resolve(res)),
          timeWindow,
          max,
        ),
      ),
    ).then(
      (res) => cb(null, res),
      (err: Error) => {
        this.health.markDown(err);
        inMemory();
      },
    );
  }
}

/**
 * A store for @fastify/rate-limit that counts in Redis while it answers within
 * REDIS_ANSWER_TIMEOUT_MS, and otherwise in this process's memory: Redis is an accelerator
 * shared by the replicas, never a reason for a login to hang or fail.
 */
export function fallbackStore(redis: Redis, nameSpace: string, health: RedisHealth): FastifyRateLimitStoreCtor {
  return class implements Store {
    private readonly inner: FallbackStore;
    // The plugin passes its global parameters (these three are not in its typings).
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean; cache?: number }) {
      this.inner = new FallbackStore(
        new RedisStore(options.continueExceeding, options.exponentialBackoff, redis, nameSpace),
        new LocalStore(options.continueExceeding, options.exponentialBackoff, options.cache),
        health,
      );
    }
    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.inner.incr(key, cb, timeWindow, max);
    }
    read(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.inner.read(key, cb, timeWindow, max);
    }
    child(routeOptions: RouteOptions): Store {
      return this.inner.child(routeOptions);
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
