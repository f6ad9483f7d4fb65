import { codeSubstance, isSevere, medicationAlerts, readAllergyText, type AllergyEntry } from './medication-safety';
import { findSubstances, fuzzyThreshold, misspelling, suggestSubstances } from './substance-matcher';

const context = (note: string, activeMedications: string[] = []) => ({ allergies: readAllergyText(note), activeMedications });
const summary = (drug: string, note: string, meds: string[] = []) =>
  medicationAlerts(drug, context(note, meds)).map((a) => `${a.severity}/${a.kind}`);

const entry = (over: Partial<AllergyEntry> = {}): AllergyEntry => ({
  substance: { text: 'Penicillin', code: 'class:penicillins' },
  type: 'allergy',
  criticality: 'unable-to-assess',
  reactions: [],
  clinicalStatus: 'active',
  verificationStatus: 'confirmed',
  ...over,
});

describe('codeSubstance and the matcher', () => {
  it.each([
    ['amoxicilin', 'amoxicillin', 'amoxicillin'],
    ['Amoxycilin', 'amoxicillin', 'amoxicillin'],
    ['penicilin', 'class:penicillins', 'penicillin'],
    ['pencillin', 'class:penicillins', 'penicillin'],
    ['pénicilline', 'class:penicillins', 'penicillin'],
    ['codiene', 'codeine', 'codeine'],
    ['PCN', 'class:penicillins', 'penicillin'],
    ['Pen V', 'phenoxymethylpenicillin', 'phenoxymethylpenicillin'],
    ['Amox', 'amoxicillin', 'amoxicillin'],
    ['ASA', 'aspirin', 'aspirin'],
    ['TZP', 'product:piperacillin-tazobactam', 'piperacillin + tazobactam'],
    ['Doxy', 'doxycycline', 'doxycycline'],
    ['Levo', 'levofloxacin', 'levofloxacin'],
    ['Tylenol #3', 'product:acetaminophen-codeine', 'codeine + paracetamol'],
    ['Augmentin 625 mg', 'product:co-amoxiclav', 'amoxicillin + clavulanic acid'],
    ['Timentin', 'product:ticarcillin-clavulanate', 'ticarcillin + clavulanic acid'],
    ['co-codamol', 'product:co-codamol', 'codeine + paracetamol'],
    ['Ecotrin', 'product:ecotrin', 'aspirin'],
    ['Bicillin L-A', 'benzathine benzylpenicillin', 'benzathine benzylpenicillin'],
  ])('%s → %s, read as %s', (text, code, readAs) => {
    expect(codeSubstance(text)).toEqual({ text, code, readAs });
  });

  it('"Levo" is levofloxacin, or levothyroxine when dosed in micrograms', () => {
    expect(codeSubstance('Levo 500 mg')).toMatchObject({ code: 'levofloxacin' });
    expect(codeSubstance('Levo 100 mcg od')).toMatchObject({ code: 'levothyroxine', readAs: 'levothyroxine' });
    expect(medicationAlerts('Levo 100 micrograms', context('ciprofloxacin (anaphylaxis)'))).toEqual([]);
  });

  it('a name written as the vocabulary writes it has no readAs', () => {
    expect(codeSubstance('Amoxicillin')).toEqual({ text: 'Amoxicillin', code: 'amoxicillin' });
    expect(codeSubstance('penicillins')).toEqual({ text: 'penicillins', code: 'class:penicillins' });
    expect(codeSubstance('latex')).toEqual({ text: 'latex' });
  });

  it('never reads short words or abbreviations fuzzily; a word equally close to two names is read as both', () => {
    expect(fuzzyThreshold(5)).toBe(0);
    expect(fuzzyThreshold(6)).toBe(1);
    expect(fuzzyThreshold(9)).toBe(2);
    expect(misspelling('amoxx')).toBeUndefined(); // 5 letters
    expect(findSubstances('Levi')).toEqual([]); // not "Levo"
    // "cefixine" is one edit from cefixime only; "amicillin" is 1 from ampicillin and 2 from amoxicillin:
    // the strictly nearest is read; "amoicillin" is 1 from both: both are candidates
    expect(misspelling('cefixine')?.term.target).toEqual({ kind: 'ingredient', id: 'cefixime' });
    expect(misspelling('amicillin')?.terms.map((t) => t.target.id)).toEqual(['ampicillin']);
    expect(
      misspelling('amoicillin')
        ?.terms.map((t) => t.target.id)
        .sort(),
    ).toEqual(['amoxicillin', 'ampicillin']);
    // common words in notes are never drugs
    expect(findSubstances('allergic reaction with swelling, tablets')).toEqual([]);
  });

  it('finds the longest name and keeps the text as written', () => {
    expect(findSubstances('Amoxicillin/clavulanic acid 625mg tds')).toMatchObject([
      { target: { kind: 'product', id: 'co-amoxiclav' }, matchedText: 'Amoxicillin/clavulanic acid' },
    ]);
    expect(findSubstances('pip-tazo 4.5 g IV')).toMatchObject([
      { target: { id: 'piperacillin-tazobactam' }, matchedText: 'pip-tazo' },
    ]);
  });
});

describe('readAllergyText', () => {
  it('reads the substance, reaction, type and criticality; unconfirmed and active', () => {
    expect(readAllergyText('Penicillin (anaphylaxis)')).toEqual([
      {
        substance: { text: 'Penicillin', code: 'class:penicillins' },
        type: 'allergy',
        criticality: 'high',
        reactions: [{ manifestation: 'anaphylaxis', severity: 'severe' }],
        clinicalStatus: 'active',
        verificationStatus: 'unconfirmed',
      },
    ]);
    expect(readAllergyText('codeine – vomiting')).toMatchObject([
      { type: 'intolerance', reactions: [{ manifestation: 'vomiting' }] },
    ]);
    expect(readAllergyText('Penicillin (rash, hives)')).toMatchObject([{ type: 'allergy', criticality: 'low' }]);
    expect(readAllergyText('morphine (itch)')).toMatchObject([{ type: 'intolerance' }]);
    expect(readAllergyText('amoxicillin (itch)')).toMatchObject([{ type: 'allergy', reactions: [{ severity: 'mild' }] }]);
  });

  it.each([
    ['SJS', 'Stevens–Johnson syndrome'],
    ['TEN', 'toxic epidermal necrolysis'],
    ['DRESS', 'DRESS'],
    ['angioedema', 'angioedema'],
    ['swollen tongue', 'facial/airway swelling'],
  ])('%s is severe', (reaction, label) => {
    const [e] = readAllergyText(`co-trimoxazole (${reaction})`);
    expect(e).toMatchObject({ criticality: 'high', reactions: [{ manifestation: label, severity: 'severe' }] });
  });

  it.each([
    ['no reaction to penicillin', 'class:penicillins'],
    ['family history of penicillin allergy (mother)', 'class:penicillins'],
    ['tolerated cefalexin', 'cefalexin'],
    ['Penicillin allergy refuted by oral challenge 2024', 'class:penicillins'],
    ['not allergic to penicillin', 'class:penicillins'],
  ])('%s keeps the substance as an entry marked for review', (note, code) => {
    expect(readAllergyText(note)).toMatchObject([
      { substance: { code }, verificationStatus: 'unconfirmed', clinicalStatus: 'active', review: expect.any(String) },
    ]);
  });

  it.each(['NKDA', 'none', 'No known drug allergies', 'nil', 'Allergies: nil'])('%s names no substance: no entry', (note) => {
    expect(readAllergyText(note)).toEqual([]);
  });

  it('keeps the allergy when another drug was tolerated; the tolerated one is marked for review', () => {
    for (const note of ['Penicillin (anaphylaxis); tolerated cefalexin', 'Penicillin anaphylaxis – tolerated cefalexin']) {
      const read = readAllergyText(note);
      expect(read.map((e) => [e.substance.code, e.criticality, !!e.review])).toEqual([
        ['class:penicillins', 'high', false],
        ['cefalexin', 'unable-to-assess', true],
      ]);
    }
  });

  it('reads several substances, and an uncoded one by name', () => {
    expect(readAllergyText('Allergic to amoxicillin and latex').map((e) => e.substance)).toEqual([
      { text: 'amoxicillin', code: 'amoxicillin' },
      { text: 'latex' },
    ]);
    expect(readAllergyText('penicillin - rash; codeine - vomiting').map((e) => e.type)).toEqual(['allergy', 'intolerance']);
  });
});

describe('medicationAlerts: severity', () => {
  it('a confirmed penicillin anaphylaxis stops "amoxicilin", naming what matched', () => {
    const allergies = [entry({ criticality: 'high', reactions: [{ manifestation: 'anaphylaxis', severity: 'severe' }] })];
    expect(medicationAlerts('amoxicilin 500 mg', { allergies, activeMedications: [] })).toEqual([
      {
        kind: 'allergy',
        severity: 'stop',
        substance: 'Penicillin',
        matchedText: 'amoxicilin',
        readAs: 'amoxicillin',
        message:
          'Amoxicilin (read as amoxicillin) is a penicillin; the patient has a confirmed penicillin allergy with anaphylaxis.',
        source: expect.stringContaining('Khan DA'),
      },
    ]);
  });

  it('same class without a severe reaction is a warning; an intolerance is info', () => {
    expect(summary('Amoxicillin', 'Penicillin (rash)')).toEqual(['warning/allergy']);
    expect(summary('Amoxicillin', 'Penicillin')).toEqual(['warning/allergy']);
    expect(summary('co-codamol 30/500', 'codeine – vomiting')).toEqual(['info/intolerance']);
  });

  it('high criticality alone makes a stop', () => {
    expect(isSevere(entry({ criticality: 'high' }))).toBe(true);
    expect(
      medicationAlerts('amoxicillin', { allergies: [entry({ criticality: 'high' })], activeMedications: [] })[0].severity,
    ).toBe('stop');
  });

  it('refuted, inactive and resolved entries are silent', () => {
    for (const over of [
      { verificationStatus: 'refuted' },
      { clinicalStatus: 'inactive' },
      { clinicalStatus: 'resolved' },
    ] as const) {
      expect(
        medicationAlerts('amoxicillin', { allergies: [entry({ criticality: 'high', ...over })], activeMedications: [] }),
      ).toEqual([]);
    }
  });

  it('cross-reactivity is a warning whose text names the reaction', () => {
    const [a] = medicationAlerts('Ceftriaxone 1 g IV', context('Penicillin (anaphylaxis)'));
    expect(a).toMatchObject({ kind: 'cross-reactivity', severity: 'warning', matchedText: 'Ceftriaxone' });
    expect(a.message).toMatch(
      /^Ceftriaxone is a cephalosporin; after anaphylaxis to penicillin: .*a warning, not a contraindication\.$/,
    );
    expect(medicationAlerts('cefalexin', context('amoxicillin (rash)'))[0].message).toMatch(/R1 side chain/);
    expect(summary('aztreonam', 'ceftazidime (anaphylaxis)')).toEqual(['warning/cross-reactivity']);
    expect(summary('aztreonam', 'penicillin (anaphylaxis)')).toEqual([]);
  });

  it('opioids: itch with morphine is an intolerance that does not reach fentanyl; a true anaphylaxis warns across classes', () => {
    expect(summary('fentanyl 25 mcg/h patch', 'morphine (itch)')).toEqual([]);
    expect(summary('oxycodone', 'morphine (itch)')).toEqual(['info/intolerance']);
    expect(summary('fentanyl', 'morphine (anaphylaxis)')).toEqual(['warning/cross-reactivity']);
    expect(summary('oxycodone', 'morphine (anaphylaxis)')).toEqual(['stop/allergy']);
    expect(summary('fentanyl', 'morphine (rash)')).toEqual([]);
  });

  it('combination products alert on their ingredients', () => {
    expect(summary('co-codamol', 'codeine')).toEqual(['warning/allergy']);
    expect(summary('Tylenol #3', 'codeine (hives)')).toEqual(['warning/allergy']);
    expect(summary('Nurofen Plus', 'codeine (anaphylaxis)')).toEqual(['stop/allergy']);
    expect(summary('Percocet', 'oxycodone')).toEqual(['warning/allergy']);
    expect(summary('Magnapen', 'penicillin')).toEqual(['warning/allergy']);
    expect(summary('Excedrin', 'aspirin (angioedema)')).toEqual(['stop/allergy']);
  });

  it('an uncoded allergy alerts when the drug names it', () => {
    expect(summary('Fosfomycin 3 g sachet', 'fosfomycin (rash)')).toEqual(['warning/allergy']);
    expect(summary('Fosfomycin 3 g sachet', 'latex')).toEqual([]);
  });

  it('orders stop, warning, info', () => {
    const allergies = [...readAllergyText('codeine – vomiting'), ...readAllergyText('ibuprofen (anaphylaxis)')];
    expect(medicationAlerts('Nurofen Plus', { allergies, activeMedications: ['warfarin'] }).map((a) => a.severity)).toEqual([
      'stop',
      'warning',
      'info',
    ]);
  });
});

describe('medicationAlerts: interactions', () => {
  it.each([
    ['ibuprofen 400 mg', 'Warfarin 5 mg', 'warning'],
    ['sertraline', 'phenelzine', 'stop'],
    ['tramadol', 'selegiline', 'stop'],
    ['trimethoprim 200 mg', 'methotrexate 10 mg weekly', 'warning'],
    ['citalopram', 'amiodarone', 'stop'],
    ['spironolactone', 'ramipril', 'warning'],
    ['Sando-K', 'losartan', 'warning'],
    ['simvastatin', 'clarithromycin', 'stop'],
    ['omeprazole', 'atazanavir', 'stop'],
    ['tizanidine', 'ciprofloxacin', 'stop'],
  ])('%s with %s: %s', (drug, med, severity) => {
    const alerts = medicationAlerts(drug, { allergies: [], activeMedications: [med] });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'interaction', severity, substance: med });
    expect(alerts[0].source).toBeTruthy();
  });

  it('is silent for unrelated drugs and for the same drug', () => {
    expect(medicationAlerts('paracetamol', { allergies: [], activeMedications: ['warfarin', 'ramipril'] })).toEqual([]);
    expect(medicationAlerts('citalopram', { allergies: [], activeMedications: ['citalopram 20 mg'] })).toEqual([]);
  });
});

describe('suggestSubstances', () => {
  it('suggests classes, ingredients and products by prefix, brand or abbreviation, one row per substance', () => {
    expect(suggestSubstances('penic').map((s) => s.code)).toEqual(expect.arrayContaining(['class:penicillins']));
    expect(suggestSubstances('penic')[0].code).toBe('class:penicillins');
    expect(suggestSubstances('Augm')).toEqual([
      { code: 'product:co-amoxiclav', name: 'co-amoxiclav', matched: 'augmentin', kind: 'product' },
    ]);
    expect(suggestSubstances('amoxicilin')[0]).toMatchObject({ code: 'amoxicillin' });
    expect(suggestSubstances('')).toEqual([]);
    expect(suggestSubstances('a', 3)).toHaveLength(3);
  });
});
