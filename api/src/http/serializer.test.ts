import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { ErrorResponse, Prescription } from '@careloop/shared-contracts';
import { z } from 'zod';
import { prescription } from '../../../test-support/fixtures';
import { serializerCompiler } from './serializer';

const compile = (schema: z.ZodType) => serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' } as never);
const zodCompile = (schema: z.ZodType) => zodSerializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' } as never);

describe('response serializer', () => {
  const Answer = z.object({
    id: z.string(),
    count: z.number(),
    note: z.string().nullable(),
    when: z.string().optional(),
    status: z.enum(['active', 'resolved']),
    tags: z.array(z.object({ text: z.string(), code: z.string().optional() })),
    extra: z.record(z.string(), z.number()),
  });
  const data = {
    id: 'a1',
    count: 3,
    note: null,
    status: 'active',
    tags: [{ text: 'Penicillin' }, { text: 'Latex', code: '111088007' }],
    extra: { a: 1, b: 2 },
  };

  it('writes what the zod serializer writes', () => {
    expect(JSON.parse(compile(Answer)(data))).toEqual(JSON.parse(zodCompile(Answer)(data)));
    expect(JSON.parse(compile(Answer)({ ...data, when: '2025-01-01', note: 'x' }))).toEqual({
      ...data,
      when: '2025-01-01',
      note: 'x',
    });
  });

  it('writes only what the contract declares: a field the handler holds beyond it never leaks', () => {
    const out = compile(Answer)({ ...data, passwordHash: 'secret', tags: [{ text: 'Latex', internal: 'x' }] });
    expect(out).not.toContain('secret');
    expect(out).not.toContain('internal');
    expect(JSON.parse(out).tags).toEqual([{ text: 'Latex' }]);
    const rx = compile(Prescription)({
      ...prescription({ prescribedDrug: 'Paracetamol' }),
      doctorId: '00000000-0000-4000-8000-000000000003',
      stopReason: 'not in the contract',
    });
    expect(Prescription.parse(JSON.parse(rx)).prescribedDrug).toBe('Paracetamol');
    expect(rx).not.toContain('not in the contract');
    expect(rx).not.toContain('000000000003'); // the doctor's id: not part of a Prescription
  });

  it('keeps the zod serializer for what JSON Schema cannot express (a Date, an undefined)', () => {
    const Dated = z.object({ at: z.date() });
    expect(() => z.toJSONSchema(Dated, { io: 'output', unrepresentable: 'throw' })).toThrow();
    const at = new Date(Date.UTC(2025, 2, 1, 10));
    expect(compile(Dated)({ at })).toBe(zodCompile(Dated)({ at }));
    expect(compile(Dated)({ at })).toBe('{"at":"2025-03-01T10:00:00.000Z"}');
    expect(compile(z.undefined())(undefined)).toBe(zodCompile(z.undefined())(undefined));
    expect(compile(ErrorResponse)({ error: 'Not found' })).toBe('{"error":"Not found"}');
  });
});
