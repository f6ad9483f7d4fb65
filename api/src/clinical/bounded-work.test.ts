import { performance } from 'node:perf_hooks';
import { MAX_ENTRIES_PER_NOTE, readAllergyText } from './allergy-text';
import { findSubstances } from './substance-matcher';

/*
 * Bounded work: the readers run on every request over every allergy note of a patient (a note up
 * to 1,000 characters, up to 200 distinct notes). This checks what they read from 200 distinct
 * maximal notes and prints the time it took; it asserts no timing (a slow machine is not a failure).
 */

const SUBSTANCES = [
  'Penicillin',
  'amoxicillin',
  'Augmentin',
  'co-amoxiclav',
  'flucloxacillin',
  'cefalexin',
  'ceftriaxone',
  'Septrin',
  'trimethoprim',
  'nitrofurantoin',
  'clarithromycin',
  'erythromycin',
  'doxycycline',
  'ciprofloxacin',
  'codeine',
  'morphine',
  'tramadol',
  'oxycodone',
  'ibuprofen',
  'naproxen',
  'aspirin',
  'diclofenac',
  'latex',
  'elastoplast',
  'chlorhexidine',
  'amoxicilin',
  'pencillin',
  'codiene',
  'metronidazole',
  'gentamicin',
];
const PATTERNS = [
  (s: string, y: number) => `${s} (anaphylaxis ${y})`,
  (s: string, y: number) => `${s} - rash and hives in ${y}`,
  (s: string) => `${s} – vomiting`,
  (s: string, y: number) => `tolerated ${s} since ${y}`,
  (s: string) => `negative challenge to ${s}`,
  (s: string) => `mother allergic to ${s}`,
  (s: string) => `? ${s} allergy`,
  (s: string, y: number) => `${s} allergy - delabelled ${y}`,
  (s: string) => `no reaction to ${s}`,
  (s: string) => `${s} (swollen lips, wheeze)`,
  (s: string) => `${s}: itch and flushing`,
  (s: string, y: number) => `had ${s} ${y} without problems`,
  () => 'No other allergies.',
  () => 'NKDA otherwise',
];

/** n distinct notes of about `length` characters (never more). */
function allergyNotes(n: number, length = 1000): string[] {
  const notes: string[] = [];
  for (let i = 0; i < n; i++) {
    const parts: string[] = [`Allergy history (${i + 1})`];
    let k = i * 7;
    for (;;) {
      const s = SUBSTANCES[(k * 13 + i) % SUBSTANCES.length];
      const part = PATTERNS[k % PATTERNS.length](s, 1990 + ((k + i) % 35));
      const next = `${parts.join('; ')}; ${part}`;
      if (next.length > length) break;
      parts.push(part);
      k++;
    }
    notes.push(`${parts.join('; ')}${' '.repeat(Math.max(0, length - parts.join('; ').length - 1))}.`.slice(0, length));
  }
  return notes;
}

describe('bounded work', () => {
  const notes = allergyNotes(200);

  it('reads 200 distinct 1,000-character notes, each substance an entry, at most MAX_ENTRIES_PER_NOTE each', () => {
    expect(new Set(notes).size).toBe(200);
    expect(notes.every((n) => n.length === 1000)).toBe(true);
    const start = performance.now();
    const read = notes.map(readAllergyText);
    const cold = performance.now() - start;
    const again = performance.now();
    notes.forEach(readAllergyText);
    const cached = performance.now() - again;
    console.log(
      `readAllergyText: 200 distinct 1,000-character notes in ${cold.toFixed(1)} ms cold, ${cached.toFixed(1)} ms from the cache`,
    );
    for (const entries of read) {
      expect(entries.length).toBeGreaterThan(10);
      expect(entries.length).toBeLessThanOrEqual(MAX_ENTRIES_PER_NOTE);
      // every note states a severe reaction: never lost to the cap
      expect(entries.some((e) => e.criticality === 'high')).toBe(true);
      for (const e of entries) expect(e).toMatchObject({ clinicalStatus: 'active', verificationStatus: 'unconfirmed' });
    }
    // the cues mark entries for review; "No other allergies." marks none
    expect(read.flat().some((e) => e.review)).toBe(true);
    expect(read.flat().some((e) => !e.review)).toBe(true);
  });

  it('the segment split is linear: a note of one unbroken 1,000-character run is read', () => {
    expect(readAllergyText('a'.repeat(1000))).toHaveLength(1);
    expect(readAllergyText('('.repeat(1000))).toEqual([]);
    expect(readAllergyText(' - '.repeat(333))).toEqual([]);
    expect(findSubstances(`${'penicillin '.repeat(90)}`.slice(0, 1000)).length).toBe(90);
  });
});
