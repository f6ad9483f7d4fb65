import { instantOfWallTime, localDateTime } from '../clinical/age';
import { DAY_MS, latestOccurrence, nextOccurrence, retryDelayMs } from './reminder-schedule';

const MIN = 60 * 1000;
const HOUR = 60 * MIN;

/** "2026-03-29 09:00": an instant as the zone's clocks read it. */
const local = (at: Date, timeZone: string) => localDateTime(at, timeZone).replace('T', ' ');

/** The first `count` occurrences, following nextOccurrence from the start. */
function occurrences(startAt: Date, intervalDays: number, timeZone: string, count: number): Date[] {
  const out = [startAt];
  while (out.length < count) out.push(nextOccurrence(startAt, intervalDays, out[out.length - 1], timeZone)!);
  return out;
}

const at = (iso: string) => new Date(iso);

describe('reminder schedule', () => {
  it('one-off: the start; repeating in UTC: the latest start + k × n days not after now', () => {
    const start = at('2025-01-01T09:00:00Z');
    expect(latestOccurrence(start, 0, at('2026-01-01T00:00:00Z'), 'UTC')).toEqual(start);
    expect(latestOccurrence(start, 3, at('2025-01-01T08:00:00Z'), 'UTC')).toEqual(start);
    expect(latestOccurrence(start, 3, at('2025-01-07T08:59:59Z'), 'UTC')).toEqual(at('2025-01-04T09:00:00Z'));
    expect(latestOccurrence(start, 3, at('2025-01-07T09:00:00Z'), 'UTC')).toEqual(at('2025-01-07T09:00:00Z'));
    expect(nextOccurrence(start, 0, start, 'UTC')).toBeNull();
    expect(nextOccurrence(start, 2, start, 'UTC')).toEqual(new Date(start.getTime() + 2 * DAY_MS));
  });

  it('retries after 1, 2, 4 … minutes, capped at an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => retryDelayMs(n) / MIN)).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });

  describe('local time kept across daylight-saving changes', () => {
    it.each([
      // zone, a daily 09:00 start a few days before the change, the first occurrence after it
      ['Europe/London', 'March', '2026-03-26T09:00:00Z', '2026-03-29T08:00:00Z'],
      ['Europe/London', 'October', '2026-10-22T08:00:00Z', '2026-10-25T09:00:00Z'],
      ['Europe/Berlin', 'March', '2026-03-26T08:00:00Z', '2026-03-29T07:00:00Z'],
      ['Europe/Paris', 'October', '2026-10-22T07:00:00Z', '2026-10-25T08:00:00Z'],
      ['Australia/Sydney', 'April', '2026-04-01T22:00:00Z', '2026-04-04T23:00:00Z'],
      ['Australia/Sydney', 'October', '2026-09-30T23:00:00Z', '2026-10-03T22:00:00Z'],
    ])('%s, %s change: a daily 09:00 reminder stays 09:00 local', (timeZone, _change, start, afterChange) => {
      const days = occurrences(at(start), 1, timeZone, 7);
      expect(days.map((d) => local(d, timeZone).slice(11))).toEqual(Array(7).fill('09:00'));
      // consecutive local dates, one each
      const dates = days.map((d) => local(d, timeZone).slice(0, 10));
      expect(new Set(dates).size).toBe(7);
      expect(days[3]).toEqual(at(afterChange));
      // the day of the change is 23 or 25 hours long: the step is not a fixed 24 hours
      expect(Math.abs(days[3].getTime() - days[2].getTime() - DAY_MS)).toBe(HOUR);
    });

    it('weekly and every 3 days keep 09:00 local too (London, both changes; Sydney, both changes)', () => {
      const weekly = occurrences(at('2026-03-16T09:00:00Z'), 7, 'Europe/London', 4);
      expect(weekly.map((d) => d.toISOString())).toEqual([
        '2026-03-16T09:00:00.000Z',
        '2026-03-23T09:00:00.000Z',
        '2026-03-30T08:00:00.000Z', // 09:00 BST
        '2026-04-06T08:00:00.000Z',
      ]);
      const every3 = occurrences(at('2026-10-19T08:00:00Z'), 3, 'Europe/London', 4);
      expect(every3.map((d) => d.toISOString())).toEqual([
        '2026-10-19T08:00:00.000Z',
        '2026-10-22T08:00:00.000Z',
        '2026-10-25T09:00:00.000Z', // 09:00 GMT, on the day of the change
        '2026-10-28T09:00:00.000Z',
      ]);
      const sydneyWeekly = occurrences(at('2026-03-28T22:00:00Z'), 7, 'Australia/Sydney', 3);
      expect(sydneyWeekly.map((d) => local(d, 'Australia/Sydney'))).toEqual([
        '2026-03-29 09:00',
        '2026-04-05 09:00',
        '2026-04-12 09:00',
      ]);
      const sydneyEvery3 = occurrences(at('2026-09-29T23:00:00Z'), 3, 'Australia/Sydney', 4);
      expect(sydneyEvery3.map((d) => local(d, 'Australia/Sydney'))).toEqual([
        '2026-09-30 09:00',
        '2026-10-03 09:00',
        '2026-10-06 09:00',
        '2026-10-09 09:00',
      ]);
    });

    it('a local time in the spring-forward gap is sent the gap later (02:30 → 03:30), then at its time again', () => {
      // Berlin springs forward 02:00 → 03:00 on 29 March 2026: 02:30 does not exist that day
      expect(instantOfWallTime(Date.UTC(2026, 2, 29, 2, 30), 'Europe/Berlin')).toEqual(at('2026-03-29T01:30:00Z'));
      const berlin = occurrences(at('2026-03-27T01:30:00Z'), 1, 'Europe/Berlin', 4);
      expect(berlin.map((d) => local(d, 'Europe/Berlin'))).toEqual([
        '2026-03-27 02:30',
        '2026-03-28 02:30',
        '2026-03-29 03:30',
        '2026-03-30 02:30',
      ]);
      // London springs forward 01:00 → 02:00 the same day: 01:30 is sent at 02:30 BST
      const london = occurrences(at('2026-03-27T01:30:00Z'), 1, 'Europe/London', 4);
      expect(london.map((d) => local(d, 'Europe/London'))).toEqual([
        '2026-03-27 01:30',
        '2026-03-28 01:30',
        '2026-03-29 02:30',
        '2026-03-30 01:30',
      ]);
      // Sydney springs forward 02:00 → 03:00 on 4 October 2026
      const sydney = occurrences(at('2026-10-02T16:30:00Z'), 1, 'Australia/Sydney', 3);
      expect(sydney.map((d) => local(d, 'Australia/Sydney'))).toEqual([
        '2026-10-03 02:30',
        '2026-10-04 03:30',
        '2026-10-05 02:30',
      ]);
    });

    it('a local time that happens twice when clocks fall back is sent once, at the earlier instant', () => {
      // 01:30 on 25 October 2026 in London is 00:30 UTC (BST) and again 01:30 UTC (GMT)
      expect(instantOfWallTime(Date.UTC(2026, 9, 25, 1, 30), 'Europe/London')).toEqual(at('2026-10-25T00:30:00Z'));
      const start = at('2026-10-24T00:30:00Z'); // 01:30 BST
      const [, changeDay, dayAfter] = occurrences(start, 1, 'Europe/London', 3);
      expect(changeDay).toEqual(at('2026-10-25T00:30:00Z'));
      expect(dayAfter).toEqual(at('2026-10-26T01:30:00Z'));
      // at the second 01:30 the latest occurrence is still the first one: no second e-mail
      expect(latestOccurrence(start, 1, at('2026-10-25T01:45:00Z'), 'Europe/London')).toEqual(changeDay);
      // Sydney falls back 03:00 → 02:00 on 5 April 2026: 02:30 is 15:30 UTC (AEDT), then 16:30 (AEST)
      expect(instantOfWallTime(Date.UTC(2026, 3, 5, 2, 30), 'Australia/Sydney')).toEqual(at('2026-04-04T15:30:00Z'));
    });

    it('catch-up after a missed week picks the latest local-09:00 occurrence', () => {
      const start = at('2026-03-20T09:00:00Z'); // daily, 09:00 GMT
      const tz = 'Europe/London';
      // back on 3 April (BST) at 09:30 local: that morning's 09:00 BST, not 2 April 09:00 UTC
      expect(latestOccurrence(start, 1, at('2026-04-03T08:30:00Z'), tz)).toEqual(at('2026-04-03T08:00:00Z'));
      expect(latestOccurrence(start, 1, at('2026-04-03T07:59:59Z'), tz)).toEqual(at('2026-04-02T08:00:00Z'));
      expect(nextOccurrence(start, 1, at('2026-04-03T08:00:00Z'), tz)).toEqual(at('2026-04-04T08:00:00Z'));
      // the other way: a summer start, back in winter at 08:30 GMT, before that day's 09:00
      const summer = at('2026-10-19T08:00:00Z'); // 09:00 BST
      expect(latestOccurrence(summer, 1, at('2026-10-27T08:30:00Z'), tz)).toEqual(at('2026-10-26T09:00:00Z'));
      // weekly in Sydney, a week missed across the April change
      const sydney = at('2026-03-22T22:00:00Z'); // Monday 23 March 09:00 AEDT
      expect(local(latestOccurrence(sydney, 7, at('2026-04-13T12:00:00Z'), 'Australia/Sydney'), 'Australia/Sydney')).toBe(
        '2026-04-13 09:00',
      );
    });
  });
});
