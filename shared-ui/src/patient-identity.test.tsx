import { ageOn, formatBirthDate, patientIdentityText } from './PatientIdentity';

test('a birth date reads with the month as a word and the age, never shifted by a time zone', () => {
  const today = new Date(2026, 10, 23);
  expect(formatBirthDate('1980-03-12', today)).toBe('12 Mar 1980 (46)');
  // the day before the birthday: one year younger
  expect(formatBirthDate('1991-11-24', today)).toBe('24 Nov 1991 (34)');
  expect(ageOn('1991-11-23', today)).toBe(35);
  expect(formatBirthDate(null, today)).toBe('date of birth not given');
  expect(formatBirthDate('12/03/1980', today)).toBe('date of birth not given');
});

test('two namesakes get different one-line labels', () => {
  const a = patientIdentityText({ name: 'Asha Rao', DOB: '1980-03-12', email: 'asha@example.com' });
  const b = patientIdentityText({ name: 'Asha Rao', DOB: null, email: 'asha.rao@example.org' });
  expect(a).toMatch(/^Asha Rao · born 12 Mar 1980 \(\d+\) · asha@example\.com$/);
  expect(b).toBe('Asha Rao · date of birth not given · asha.rao@example.org');
});
