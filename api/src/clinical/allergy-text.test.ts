import {
  checkMedication,
  codeSubstance,
  dedupeAlerts,
  MAX_ALERTS,
  medicationAlerts,
  uncodedDrug,
  type AllergyEntry,
} from './medication-safety';
import { MAX_ENTRIES_PER_NOTE, readAllergyText } from './allergy-text';
import { findSubstances, misspelling, suggestSubstances } from './substance-matcher';
import { normalise } from './vocabulary';

/*
 * Fail safe: text may only add allergies and alerts, never remove one; what could not be checked
 * is said. Each named substance of a note is an entry; a cue marks only the entry it governs.
 */

const read = (note: string) => readAllergyText(note).map((e) => [e.substance.code ?? e.substance.text, !!e.review]);
const check = (drug: string, notes: string[], activeMedications: string[] = []) =>
  checkMedication(drug, { allergies: notes.flatMap(readAllergyText), activeMedications });

describe('allergy text only adds: every named substance is an entry, cues mark the one they govern', () => {
  // [note, [code (or text when uncoded), marked for review]]
  it.each<[string, [string, boolean][]]>([
    ['Penicillin (anaphylaxis). No other allergies.', [['class:penicillins', false]]],
    ['Penicillin (anaphylaxis). Denies other allergies.', [['class:penicillins', false]]],
    ['Penicillin - anaphylaxis. NKDA otherwise', [['class:penicillins', false]]],
    ['Amoxicillin (rash), no other known allergies', [['amoxicillin', false]]],
    ['Allergic to penicillin (anaphylaxis); nil else', [['class:penicillins', false]]],
    ['Co-trimoxazole (SJS). No further drug allergies.', [['product:co-trimoxazole', false]]],
    ['No allergies other than penicillin', [['class:penicillins', false]]],
    ['Penicillin (hives). Otherwise none known.', [['class:penicillins', false]]],
    ['negative challenge to cefuroxime', [['cefuroxime', true]]],
    [
      'Amoxicillin rash 2010, negative challenge to cefuroxime',
      [
        ['amoxicillin', false],
        ['cefuroxime', true],
      ],
    ],
    ['penicillin (delabelled after negative skin test)', [['class:penicillins', true]]],
    ['Penicillin allergy - delabelled 2023', [['class:penicillins', true]]],
    ['delabelled penicillin allergy 2023', [['class:penicillins', true]]],
    ['penicillin (rash) – delabelled after negative oral challenge 2022', [['class:penicillins', true]]],
    ['Penicillin allergy refuted by oral challenge 2024', [['class:penicillins', true]]],
    ['Penicillin allergy ruled out', [['class:penicillins', true]]],
    ['Penicillin allergy label removed 2023', [['class:penicillins', true]]],
    ['tolerated cefalexin since 2019', [['cefalexin', true]]],
    [
      'Penicillin (anaphylaxis); tolerated cefalexin since 2019',
      [
        ['class:penicillins', false],
        ['cefalexin', true],
      ],
    ],
    [
      'Trimethoprim rash; nitrofurantoin tolerated',
      [
        ['trimethoprim', false],
        ['nitrofurantoin', true],
      ],
    ],
    [
      'Took cefalexin 2020 without problems, penicillin allergy (hives)',
      [
        ['cefalexin', true],
        ['class:penicillins', false],
      ],
    ],
    [
      'codeine - vomiting; morphine - fine',
      [
        ['codeine', false],
        ['morphine', true],
      ],
    ],
    ['no reaction to penicillin', [['class:penicillins', true]]],
    ['not allergic to penicillin', [['class:penicillins', true]]],
    ['denies penicillin allergy', [['class:penicillins', true]]],
    ['no penicillin allergy', [['class:penicillins', true]]],
    [
      'Penicillin - no allergy, took amoxicillin 2021 fine',
      [
        ['class:penicillins', true],
        ['amoxicillin', true],
      ],
    ],
    ['mother allergic to penicillin', [['class:penicillins', true]]],
    ['Mum has penicillin allergy', [['class:penicillins', true]]],
    ['family history of penicillin allergy (mother)', [['class:penicillins', true]]],
    ['FH: penicillin allergy in sister', [['class:penicillins', true]]],
    ['father: penicillin allergy', [['class:penicillins', true]]],
    ['Penicillin allergy – mother', [['class:penicillins', true]]],
    ['Brother is allergic to penicillin (anaphylaxis)', [['class:penicillins', true]]],
    [
      'mother allergic to codeine; penicillin (hives)',
      [
        ['codeine', true],
        ['class:penicillins', false],
      ],
    ],
    ['? penicillin allergy', [['class:penicillins', true]]],
    ['penicillin allergy?', [['class:penicillins', true]]],
    ['penicillin allergy - query', [['class:penicillins', true]]],
    ['possible penicillin allergy as a child', [['class:penicillins', true]]],
    ['query allergy to co-amoxiclav', [['product:co-amoxiclav', true]]],
    ['PCN allergy ?rash as child', [['class:penicillins', true]]],
    [
      'Sulfa (SJS). Tolerated amoxicillin 2021. No other drug allergies.',
      [
        ['class:sulfonamides', false],
        ['amoxicillin', true],
      ],
    ],
    [
      'Aspirin (angioedema); ibuprofen tolerated; NKDA otherwise',
      [
        ['aspirin', false],
        ['ibuprofen', true],
      ],
    ],
    [
      'Penicillin (anaphylaxis) - but tolerated cefalexin 2018; family history of codeine allergy',
      [
        ['class:penicillins', false],
        ['cefalexin', true],
        ['codeine', true],
      ],
    ],
    [
      'ceftriaxone (anaphylaxis), negative skin test to amoxicillin',
      [
        ['ceftriaxone', false],
        ['amoxicillin', true],
      ],
    ],
    ['Nil known. Aspirin causes wheeze.', [['aspirin', false]]],
    [
      'Flucloxacillin - rash. Not allergic to erythromycin.',
      [
        ['flucloxacillin', false],
        ['erythromycin', true],
      ],
    ],
    [
      'Morphine (itch) - tolerated oxycodone',
      [
        ['morphine', false],
        ['oxycodone', true],
      ],
    ],
    [
      'Penicillin anaphylaxis 1998. Had amoxicillin 2015 without reaction. Delabelled 2016.',
      [
        ['class:penicillins', false],
        ['amoxicillin', true],
      ],
    ],
    [
      'Latex (hives); no reaction to elastoplast',
      [
        ['Latex', false],
        ['elastoplast', true],
      ],
    ],
  ])('%s', (note, expected) => {
    expect(read(note)).toEqual(expected);
  });

  it('"Penicillin (anaphylaxis). No other allergies." keeps a plain, severe penicillin entry that stops amoxicillin', () => {
    // exactly what the note says without its last sentence (medication-safety.test.ts spells that out)
    expect(readAllergyText('Penicillin (anaphylaxis). No other allergies.')).toEqual(readAllergyText('Penicillin (anaphylaxis)'));
    expect(
      medicationAlerts('amoxicillin 500 mg', {
        allergies: readAllergyText('Penicillin (anaphylaxis). No other allergies.'),
        activeMedications: [],
      }).map((a) => a.severity),
    ).toEqual(['stop']);
  });

  it('a review entry stays unconfirmed and active and is checked like any other, its alert saying why', () => {
    const [entry] = readAllergyText('negative challenge to cefuroxime');
    expect(entry).toMatchObject({
      substance: { text: 'cefuroxime', code: 'cefuroxime' },
      clinicalStatus: 'active',
      verificationStatus: 'unconfirmed',
      review: 'the note says “negative challenge to cefuroxime”',
    });
    const [alert] = medicationAlerts('cefuroxime 750 mg IV', { allergies: [entry], activeMedications: [] });
    expect(alert).toMatchObject({ kind: 'allergy', severity: 'warning' });
    expect(alert.message).toContain('To review: the note says “negative challenge to cefuroxime”.');
    // same grading from its reactions: a family history with anaphylaxis is a stop, with the doubt shown
    const [family] = medicationAlerts('amoxicillin', {
      allergies: readAllergyText('Brother is allergic to penicillin (anaphylaxis)'),
      activeMedications: [],
    });
    expect(family.severity).toBe('stop');
    expect(family.message).toMatch(/To review: family history, not necessarily the patient's own/);
  });

  it.each([
    'NKDA',
    'none',
    'None known',
    'nil',
    'no known drug allergies',
    'No allergies',
    'NKDA (checked with patient 12/03)',
    'Allergies: nil',
    'No other allergies.',
    'Denies other allergies',
  ])('%s names no substance: nothing', (note) => {
    expect(readAllergyText(note)).toEqual([]);
  });

  it("never deletes another segment's entry", () => {
    for (const cue of ['no allergy', 'delabelled', 'tolerated', 'denies', 'negative skin test', 'mother', 'query', 'fine']) {
      const note = `Penicillin (anaphylaxis); codeine (vomiting) – ${cue}`;
      expect(readAllergyText(note).map((e) => e.substance.code)).toEqual(['class:penicillins', 'codeine']);
      expect(readAllergyText(note)[0].review).toBeUndefined();
    }
  });

  it('returns copies: a caller cannot change what the next reader gets', () => {
    const first = readAllergyText('Penicillin (anaphylaxis)');
    first[0].substance.code = 'paracetamol';
    first[0].reactions.pop();
    first.pop();
    expect(readAllergyText('Penicillin (anaphylaxis)')).toMatchObject([
      { substance: { code: 'class:penicillins' }, reactions: [{ manifestation: 'anaphylaxis' }] },
    ]);
  });

  it(`keeps every substance of a long note (the bound, MAX_ENTRIES_PER_NOTE = ${MAX_ENTRIES_PER_NOTE}, is above what a note can name)`, () => {
    const names = [
      'amoxicillin',
      'cefalexin',
      'ciprofloxacin',
      'doxycycline',
      'clarithromycin',
      'metronidazole',
      'codeine',
      'morphine',
      'tramadol',
      'ibuprofen',
      'naproxen',
      'diclofenac',
      'warfarin',
      'lisinopril',
      'ramipril',
      'losartan',
      'sertraline',
      'citalopram',
      'fluoxetine',
      'omeprazole',
      'lansoprazole',
      'simvastatin',
      'atorvastatin',
      'carbamazepine',
      'phenytoin',
      'gentamicin',
      'vancomycin',
      'linezolid',
      'trimethoprim',
      'nitrofurantoin',
      'fentanyl',
      'oxycodone',
      'ondansetron',
      'haloperidol',
    ];
    const note = `${names.map((n) => `${n} (rash)`).join('; ')}; teicoplanin (anaphylaxis)`;
    const entries = readAllergyText(note);
    expect(entries).toHaveLength(names.length + 1);
    expect(entries.some((e) => e.substance.code === 'teicoplanin' && e.criticality === 'high')).toBe(true);
  });
});

describe('an ambiguous misspelling fails safe: every tied candidate is checked', () => {
  it('reads the strictly nearest name as that one', () => {
    expect(findSubstances('amicillin 500 mg')).toMatchObject([
      { target: { id: 'ampicillin' }, readAs: 'ampicillin', via: 'misspelling' },
    ]);
    expect(findSubstances('amicillin 500 mg')[0].candidates).toBeUndefined();
  });

  it('keeps every name tied nearest as a candidate', () => {
    const [m] = findSubstances('amoicillin 500 mg');
    expect(m.candidates?.map((t) => t.id).sort()).toEqual(['amoxicillin', 'ampicillin']);
    expect(m.readAs).toBe('amoxicillin or ampicillin');
    expect(codeSubstance('amoicillin')).toEqual({
      text: 'amoicillin',
      code: 'amoxicillin',
      readAs: 'amoxicillin or ampicillin',
      candidates: ['amoxicillin', 'ampicillin'],
    });
  });

  it('alerts against every candidate, saying it read the drug as either and asking to confirm', () => {
    const alerts = medicationAlerts('amoicillin 500 mg', {
      allergies: readAllergyText('ampicillin (anaphylaxis)'),
      activeMedications: [],
    });
    expect(alerts.map((a) => `${a.severity}/${a.kind}`)).toEqual(['stop/allergy', 'stop/allergy']);
    for (const a of alerts) {
      expect(a.readAs).toMatch(/ or /);
      expect(a.message).toContain('read as amoxicillin or ampicillin — confirm the drug');
    }
    // an interaction of either candidate is raised too
    const withMeds = medicationAlerts('amoicillin', { allergies: [], activeMedications: ['methotrexate 10 mg weekly'] });
    expect(withMeds.map((a) => a.kind)).toEqual(['interaction', 'interaction']);
    expect(withMeds.every((a) => / — confirm the drug/.test(a.message))).toBe(true);
  });

  it('an ambiguous allergy word is an entry per candidate, each to confirm', () => {
    expect(
      readAllergyText('amoicillin (hives)')
        .map((e) => [e.substance.code, e.review])
        .sort(),
    ).toEqual([
      ['amoxicillin', expect.stringMatching(/^read as .* or .* — confirm the substance$/)],
      ['ampicillin', expect.stringMatching(/^read as .* or .* — confirm the substance$/)],
    ]);
  });

  it('suggestSubstances offers every tied candidate', () => {
    expect(
      suggestSubstances('amoicillin')
        .map((s) => s.code)
        .sort(),
    ).toEqual(['amoxicillin', 'ampicillin']);
    expect(suggestSubstances('amicillin').map((s) => s.code)).toEqual(['ampicillin']);
    expect(misspelling('warfarine')?.terms.map((t) => t.target.id)).toEqual(['warfarin']);
  });
});

describe('text hygiene: look-alike and invisible characters cannot hide a name', () => {
  it.each([
    ['Cyrillic а', '\u0430moxicillin 500 mg', 'amoxicillin'],
    ['Cyrillic о and е', 'am\u043exicillin', 'amoxicillin'],
    ['Greek ο', 'amοxicillin', 'amoxicillin'],
    ['Greek capital Ρ', '\u03a1enicillin', 'penicillins'],
    ['zero-width space', 'amoxi\u200bcillin', 'amoxicillin'],
    ['zero-width joiner', 'amoxi\u200dcillin', 'amoxicillin'],
    ['word joiner', 'amox\u2060icillin', 'amoxicillin'],
    ['soft hyphen', 'peni\u00adcillin', 'penicillins'],
    ['byte-order mark', '\ufeffamoxicillin', 'amoxicillin'],
    ['right-to-left override', 'amoxicillin\u202e', 'amoxicillin'],
    ['left-to-right isolate', 'amoxi\u2066cillin', 'amoxicillin'],
    ['full-width letters', 'ａｍｏｘｉｃｉｌｌｉｎ', 'amoxicillin'],
    ['decomposed accent', 'pe\u0301nicilline', 'penicillins'],
  ])('%s', (_, text, id) => {
    const [m] = findSubstances(text);
    expect(m.target.id).toBe(id);
    // matchedText is sliced from the original text, disguise included
    expect(text.slice(m.start, m.end)).toBe(m.matchedText);
    expect(normalise(m.matchedText)).not.toBe('');
  });

  it('a disguised name is shown as what it was read as, and alerts', () => {
    const [a] = medicationAlerts('\u0430moxicillin 500 mg', {
      allergies: readAllergyText('Penicillin (anaphylaxis)'),
      activeMedications: [],
    });
    expect(a).toMatchObject({ severity: 'stop', matchedText: '\u0430moxicillin', readAs: 'amoxicillin' });
    expect(readAllergyText('Peni\u200bcillin (anaphylaxis)')).toMatchObject([
      { substance: { code: 'class:penicillins' }, criticality: 'high' },
    ]);
    expect(readAllergyText('p\u0435nicillin (anaphylaxis)')).toMatchObject([{ substance: { code: 'class:penicillins' } }]);
  });

  it('keeps offsets of later words right after a disguise', () => {
    const text = 'a\u200bmoxicillin and \u0441efalexin';
    const mentions = findSubstances(text);
    expect(mentions.map((m) => [m.target.id, text.slice(m.start, m.end)])).toEqual([
      ['amoxicillin', 'a\u200bmoxicillin'],
      ['cefalexin', '\u0441efalexin'],
    ]);
  });
});

describe('checkMedication says what could not be checked', () => {
  it('lists the prescribed drug when no substance is found in it', () => {
    expect(check('Zzyzx 10 mg', ['Penicillin (anaphylaxis)'])).toEqual({ alerts: [], uncoded: ['Zzyzx 10 mg'], omitted: 0 });
    expect(uncodedDrug('Zzyzx 10 mg')).toBe(true);
    expect(uncodedDrug('amoxicillin')).toBe(false);
  });

  it('lists each active medication in which no substance is found', () => {
    const result = check('ibuprofen 400 mg', [], ['Warfarin 5 mg', 'Herbal tea', 'mystery tablets']);
    expect(result.alerts.map((a) => a.kind)).toEqual(['interaction']);
    expect(result.uncoded).toEqual(['Herbal tea', 'mystery tablets']);
  });

  it("medicationAlerts is checkMedication's alerts", () => {
    const ctx = { allergies: readAllergyText('Penicillin (anaphylaxis)'), activeMedications: ['warfarin'] };
    expect(medicationAlerts('Nurofen Plus', ctx)).toEqual(checkMedication('Nurofen Plus', ctx).alerts);
  });
});

describe('alerts are deduplicated and capped', () => {
  it('one alert per finding however often the allergy is written', () => {
    const notes = Array.from({ length: 8 }, (_, i) => (i % 2 ? 'Penicillin (anaphylaxis)' : 'penicillin - rash'));
    const alerts = check('amoxicillin', notes).alerts;
    expect(alerts.map((a) => a.severity)).toEqual(['stop']);
  });

  it(`at most MAX_ALERTS (${MAX_ALERTS}), stops first and never cut`, () => {
    const warnings = Array.from({ length: 30 }, (_, i) => ({
      key: `w${i}`,
      alert: {
        kind: 'allergy' as const,
        severity: 'warning' as const,
        substance: `w${i}`,
        matchedText: 'x',
        message: 'w',
        source: 's',
      },
    }));
    const stops = Array.from({ length: 25 }, (_, i) => ({
      key: `s${i}`,
      alert: {
        kind: 'allergy' as const,
        severity: 'stop' as const,
        substance: `s${i}`,
        matchedText: 'x',
        message: 's',
        source: 's',
      },
    }));
    const capped = dedupeAlerts([...warnings, ...stops.slice(0, 5)]);
    expect(capped.alerts).toHaveLength(MAX_ALERTS);
    expect(capped.alerts.slice(0, 5).every((a) => a.severity === 'stop')).toBe(true);
    expect(capped.omitted).toBe(15);
    const allStops = dedupeAlerts([...warnings, ...stops]);
    expect(allStops.alerts.filter((a) => a.severity === 'stop')).toHaveLength(25);
  });

  it('a long real note raises at most MAX_ALERTS', () => {
    const entries: AllergyEntry[] = readAllergyText(
      Array.from({ length: 40 }, (_, i) => `penicillin (rash ${i})`).join('; ') +
        '; amoxicillin (anaphylaxis); co-amoxiclav (hives); flucloxacillin (rash)',
    );
    const { alerts } = checkMedication('Augmentin 625 mg', {
      allergies: entries,
      activeMedications: ['methotrexate', 'warfarin'],
    });
    expect(alerts.length).toBeLessThanOrEqual(MAX_ALERTS);
    expect(alerts[0].severity).toBe('stop');
  });
});
