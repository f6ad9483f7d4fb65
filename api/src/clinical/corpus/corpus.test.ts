import corpus from './medication-safety.json';
import { evaluate, report, type CorpusCase } from './evaluate';

// The measured corpus. Severe cases (a missed stop) must all be found; the rest is reported
// (console.log of the report), with floors of 98 % sensitivity and specificity.
describe('the medication-safety corpus', () => {
  const cases = corpus.cases as CorpusCase[];
  const result = evaluate(cases);

  it('has at least 600 labelled cases, 150 of them interaction cases, positives and negatives, every issue 13 case among them', () => {
    expect(cases.length).toBeGreaterThanOrEqual(600);
    expect(result.interactions.positives + result.interactions.negatives).toBeGreaterThanOrEqual(150);
    expect(result.interactions.negatives).toBeGreaterThan(20);
    expect(result.overall.positives).toBeGreaterThan(100);
    expect(result.overall.negatives).toBeGreaterThan(50);
    expect(result.issue13.positives + result.issue13.negatives).toBeGreaterThanOrEqual(50);
  });

  it('finds every severe case (sensitivity 100 %)', () => {
    if (result.severe.sensitivity < 1) console.log(report(result));
    expect(result.severe.positives).toBeGreaterThan(100);
    expect(result.misses.filter((r) => r.case.severe).map((r) => r.case)).toEqual([]);
  });

  it('reports sensitivity and specificity overall', () => {
    console.log(report(result));
    expect(result.overall.sensitivity).toBeGreaterThanOrEqual(0.98);
    expect(result.overall.specificity).toBeGreaterThanOrEqual(0.98);
    expect(result.issue13.sensitivity).toBe(1);
    expect(result.issue13.specificity).toBe(1);
  });
});
