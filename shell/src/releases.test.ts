import { changedRemotes } from './releases';

const v2 = {
  public: 'https://public.example.org/releases/1.0.0-aaaa0000/mf-manifest.json',
  patient: 'https://patient.example.org/releases/1.2.0-bbbb0000/mf-manifest.json',
  doctor: 'https://doctor.example.org/releases/1.0.0-cccc0000/mf-manifest.json',
};

test('no remote changed: nothing to offer', () => {
  expect(changedRemotes(v2, { ...v2 })).toEqual([]);
});

test('a remote deployed alone is the one that changed', () => {
  const v3 = { ...v2, patient: 'https://patient.example.org/releases/1.3.0-dddd0000/mf-manifest.json' };
  expect(changedRemotes(v2, v3)).toEqual(['patient']);
});

test('a remote moved to another host counts as new too; a missing entry (a broken file) does not', () => {
  expect(changedRemotes(v2, { ...v2, doctor: 'https://doctor-v2.example.org/mf-manifest.json' })).toEqual(['doctor']);
  expect(changedRemotes(v2, { public: v2.public, patient: v2.patient })).toEqual([]);
});
