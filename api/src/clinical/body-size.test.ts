import { bodyMassIndex } from './body-size';

const ok = (value: number) => ({ status: 'ok' as const, value });

describe('body mass index (WHO TRS 894)', () => {
  it('is the weight in kg over the height in metres squared, to one decimal', () => {
    expect(bodyMassIndex(ok(70.2), ok(175))).toEqual({ status: 'ok', value: 22.9 });
    expect(bodyMassIndex(ok(120), ok(160))).toEqual({ status: 'ok', value: 46.9 });
    expect(bodyMassIndex(ok(3.4), ok(50))).toEqual({ status: 'ok', value: 13.6 }); // a newborn's, from its length
  });

  it('is implausible, not a value, for a pair no person has (one of them mistyped)', () => {
    expect(bodyMassIndex(ok(70), ok(25))).toEqual({ status: 'implausible', value: 1120 });
    expect(bodyMassIndex(ok(0.5), ok(270))).toEqual({ status: 'implausible', value: 0.1 });
  });

  it('is none unless both were measured and read', () => {
    expect(bodyMassIndex(ok(70), { status: 'missing' })).toBeNull();
    expect(bodyMassIndex({ status: 'missing' }, ok(175))).toBeNull();
    expect(bodyMassIndex({ status: 'unreadable', raw: 'heavy' }, ok(175))).toBeNull();
    expect(bodyMassIndex(ok(70), { status: 'implausible', raw: '1750', reason: 'too tall' })).toBeNull();
  });
});
