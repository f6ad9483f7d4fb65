import type { MedicalRecord } from '@careloop/shared-contracts';
import { localDateTime } from './age';
import { vitalSignTrend } from './trends';

const record = (id: string, createdAt: string, gpe: Record<string, unknown>): MedicalRecord =>
  ({
    _id: id,
    title: id,
    createdAt,
    examination: { generalPhysicalExamination: { spo2Scale: 1, ...gpe } },
  }) as unknown as MedicalRecord;

describe('localDateTime', () => {
  it("reads an instant in the clinic's zone, 24-hour", () => {
    expect(localDateTime(new Date('2025-02-28T21:30:00Z'), 'Australia/Sydney')).toBe('2025-03-01T08:30');
    expect(localDateTime(new Date('2025-07-01T00:05:00Z'), 'UTC')).toBe('2025-07-01T00:05');
    expect(localDateTime(new Date('2025-07-01T12:00:00Z'), 'America/New_York')).toBe('2025-07-01T08:00');
  });
});

describe('vitalSignTrend', () => {
  it('orders by time, then by when written; an unreadable observation time falls back to when written', () => {
    const t = vitalSignTrend('p', [
      record('c', '2025-03-01T10:00:00.000Z', { observedAt: '2025-03-01T09:00' }),
      record('b', '2025-03-01T09:30:00.000Z', { observedAt: '2025-03-01T09:00' }),
      record('a', '2025-03-01T08:00:00.000Z', { observedAt: 'this morning' }),
    ]);
    expect(t.points.map((p) => [p.recordId, p.at, p.atSource])).toEqual([
      ['a', '2025-03-01T08:00', 'recorded'],
      ['b', '2025-03-01T09:00', 'observed'],
      ['c', '2025-03-01T09:00', 'observed'],
    ]);
  });

  it('never turns an implausible or unreadable reading into a number', () => {
    const [p] = vitalSignTrend('p', [
      record('a', '2025-03-01T08:00:00.000Z', { bloodPressure: '1200/80', temperature: '50', pulse: 72 }),
    ]).points;
    expect(p).toMatchObject({ systolic: null, diastolic: null, temperature: null, pulse: 72 });
  });
});
