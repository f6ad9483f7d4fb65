/** The one source of "now" for business rules (sessions, lockouts), so tests can move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests. */
export class ManualClock implements Clock {
  private t: number;
  constructor(start: Date | string = '2025-01-15T09:00:00Z') {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
