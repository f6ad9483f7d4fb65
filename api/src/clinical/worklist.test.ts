import { news2, type News2Vitals } from './news2';
import { compareRisk, news2Change, riskLevel, worklistOrder, type WorklistEntry } from './worklist';

const T0 = new Date('2025-03-01T10:00:00Z');
const minutesLater = (n: number) => new Date(T0.getTime() + n * 60_000);

/** A score as the worklist reads it. */
const score = (total: number, { complete = true, three = false } = {}) => ({
  complete,
  total,
  singleParameterThree: three,
});

const entry = (name: string, s: ReturnType<typeof score> | null, recordedAt = T0): WorklistEntry => ({
  name,
  id: `id-${name}`,
  latest: s ? { news2: s, recordedAt } : null,
});

const order = (...entries: WorklistEntry[]) => worklistOrder(entries).map((e) => e.name);

describe('worklist order (RCP 2017 Charts 3 and 4; api/CLINICAL.md H17)', () => {
  it('puts the highest complete score first: high, medium, low by total', () => {
    expect(order(entry('low2', score(2)), entry('high8', score(8)), entry('med5', score(5)), entry('low4', score(4)))).toEqual([
      'high8',
      'med5',
      'low4',
      'low2',
    ]);
  });

  it('within a band the higher total first (9 before 7)', () => {
    expect(order(entry('seven', score(7)), entry('nine', score(9)))).toEqual(['nine', 'seven']);
  });

  it('a single parameter scoring 3 ranks above a plain low score with a higher total', () => {
    expect(order(entry('plain4', score(4)), entry('three3', score(3, { three: true })))).toEqual(['three3', 'plain4']);
    // but not above a medium score
    expect(order(entry('three3', score(3, { three: true })), entry('med5', score(5)))).toEqual(['med5', 'three3']);
  });

  it('an incomplete score never sorts below a complete score of the same or a lower total', () => {
    for (const lowerBound of [0, 1, 2, 3, 4, 5, 6, 7, 8, 12]) {
      for (let total = 0; total <= lowerBound; total++) {
        for (const three of [false, true]) {
          const incomplete = entry('incomplete', score(lowerBound, { complete: false }));
          const complete = entry('complete', score(total, { three }));
          expect([lowerBound, total, three, order(complete, incomplete)]).toEqual([
            lowerBound,
            total,
            three,
            ['incomplete', 'complete'],
          ]);
        }
      }
    }
  });

  it('an incomplete score ranks by its lower bound: "at least 7" is high, above a complete 5', () => {
    expect(order(entry('med5', score(5)), entry('atLeast7', score(7, { complete: false })))).toEqual(['atLeast7', 'med5']);
    expect(riskLevel({ news2: score(7, { complete: false }), recordedAt: T0 })).toBe(
      riskLevel({ news2: score(7), recordedAt: T0 }),
    );
  });

  it('a complete urgent score above an incomplete lower bound that is lower', () => {
    expect(order(entry('atLeast2', score(2, { complete: false })), entry('med6', score(6)))).toEqual(['med6', 'atLeast2']);
  });

  it('no record is unknown, not low: above every complete low score, below a known urgent one', () => {
    expect(order(entry('low4', score(4)), entry('none', null), entry('zero', score(0)))).toEqual(['none', 'low4', 'zero']);
    expect(order(entry('none', null), entry('three1', score(3, { three: true })))).toEqual(['three1', 'none']);
    expect(order(entry('none', null), entry('med5', score(5)), entry('high7', score(7)))).toEqual(['high7', 'med5', 'none']);
  });

  it('no record sorts after an incomplete score with the same lower bound (a record, however partial, first)', () => {
    expect(order(entry('none', null), entry('atLeast0', score(0, { complete: false })))).toEqual(['atLeast0', 'none']);
  });

  it('ties: the most recent record first, then by name', () => {
    expect(
      order(
        entry('older', score(5), minutesLater(0)),
        entry('newer', score(5), minutesLater(30)),
        entry('middle', score(5), minutesLater(10)),
      ),
    ).toEqual(['newer', 'middle', 'older']);
    expect(order(entry('Bea', null), entry('Abe', null))).toEqual(['Abe', 'Bea']);
  });

  it('is a strict order: never both before and after', () => {
    const entries = [
      entry('a', score(8)),
      entry('b', score(3, { three: true })),
      entry('c', null),
      entry('d', score(0, { complete: false })),
      entry('e', score(4)),
    ];
    for (const x of entries) {
      expect(compareRisk(x, x)).toBe(0);
      for (const y of entries) if (x !== y) expect(Math.sign(compareRisk(x, y))).toBe(-Math.sign(compareRisk(y, x)));
    }
  });

  it('reads real NEWS2 results: a septic picture (all seven parameters) first, a missing one incomplete', () => {
    const septic: News2Vitals = {
      respirationRate: 28,
      oxygenSaturation: 90,
      spo2Scale: 1,
      supplementalOxygen: false,
      systolicBP: 88,
      pulse: 128,
      consciousness: 'C',
      temperature: 39.4,
    };
    const well: News2Vitals = {
      ...septic,
      respirationRate: 16,
      oxygenSaturation: 98,
      systolicBP: 124,
      pulse: 72,
      consciousness: 'A',
      temperature: 36.8,
    };
    const a = news2(septic);
    const b = news2(well);
    const partial = news2({ ...well, consciousness: null });
    expect(a.complete && b.complete && !partial.complete).toBe(true);
    const at = (r: typeof a, name: string): WorklistEntry => ({ name, id: name, latest: { news2: r, recordedAt: T0 } });
    expect(worklistOrder([at(b, 'well'), at(partial, 'partial'), at(a, 'septic')]).map((e) => e.name)).toEqual([
      'septic',
      'partial',
      'well',
    ]);
  });
});

describe('news2Change', () => {
  it('is the latest total minus the previous one when both are complete', () => {
    expect(news2Change(score(7), score(3))).toBe(4);
    expect(news2Change(score(2), score(5))).toBe(-3);
    expect(news2Change(score(4), score(4))).toBe(0);
  });

  it('is null without a previous record (or any record)', () => {
    expect(news2Change(score(7), null)).toBeNull();
    expect(news2Change(null, null)).toBeNull();
  });

  it('is null when either score is incomplete: a difference of lower bounds is no measured change', () => {
    expect(news2Change(score(7, { complete: false }), score(3))).toBeNull();
    expect(news2Change(score(7), score(3, { complete: false }))).toBeNull();
    expect(news2Change(score(3, { complete: false }), score(3, { complete: false }))).toBeNull();
  });
});
