import { bodyMassIndex } from './body-size';

const ok = (value: number) => ({ status: 'ok' as const, value });

describe('body mass index (WHO TRS 894)', () => {
  it('is the weight in kg over the height in metres squared, to one decimal', () => {
    expect(bodyMassIndex(ok(70.2), ok(175))).toBe(22.9);
    expect(bodyMassIndex(ok(120), ok(160))).toBe(46.9);
    expect(bodyMassIndex(ok(3.4), ok(50))).toBe(13.6); // a newborn's, from its length
  });

  it('is none unless both were measured and read', () => {
    expect(bodyMassIndex(ok(70), { status: 'missing' })).toBeNull();
    expect(bodyMassIndex({ status: 'missing' }, ok(175))).toBeNull();
    expect(bodyMassIndex({ status: 'unreadable', raw: 'heavy' }, ok(175))).toBeNull();
    expect(bodyMassIndex(ok(70), { status: 'implausible', raw: '1750', reason: 'too tall' })).toBeNull();
  });
});
