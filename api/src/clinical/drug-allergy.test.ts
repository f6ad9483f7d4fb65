import { DrugAllergyAlert } from 'shared-contracts';
import { classOf, DRUG_CLASSES, drugAllergyAlerts, normalise } from './drug-allergy';

const kinds = (alerts: DrugAllergyAlert[]) => alerts.map((a) => a.kind);

describe('the drug class table', () => {
  const rows = DRUG_CLASSES.flatMap((cls) =>
    cls.members.flatMap((m) =>
      [m.name, ...(m.aliases ?? []), ...(m.brands ?? [])].map((name) => [cls.id, name, cls.allergyTerms[0]] as const),
    ),
  );

  it.each(rows)('%s: %s alerts same-class against a "%s" allergy', (classId, name, word) => {
    const note = `${word} (rash)`;
    const alerts = drugAllergyAlerts(name, [note]);
    expect(alerts).toHaveLength(1);
    // tetracycline, aspirin: the class word is also the drug's own name
    const expected = normalise(name) === normalise(word) ? 'same-drug' : 'same-class';
    expect(alerts[0]).toMatchObject({ drug: name, allergy: note, kind: expected, drugClass: classId });
    expect(classOf(name)).toBe(classId);
  });

  it.each(DRUG_CLASSES.flatMap((cls) => cls.members.map((m) => [m.name] as const)))(
    '%s alerts same-drug against itself',
    (name) => {
      expect(kinds(drugAllergyAlerts(name, [`Allergic to ${name.toUpperCase()}!`]))).toEqual(['same-drug']);
    },
  );

  it('names each generic once across the whole table', () => {
    const names = DRUG_CLASSES.flatMap((c) =>
      c.members.flatMap((m) => [m.name, ...(m.aliases ?? []), ...(m.brands ?? [])].map(normalise)),
    );
    expect(new Set(names).size).toBe(names.length);
  });

  it('only links to classes that exist', () => {
    for (const cls of DRUG_CLASSES) {
      for (const link of cls.crossReactsWithAllergyTo ?? []) expect(DRUG_CLASSES.map((c) => c.id)).toContain(link.classId);
    }
  });
});

describe('drugAllergyAlerts', () => {
  it('penicillin allergy + amoxicillin: same-class with a clear message', () => {
    expect(drugAllergyAlerts('Amoxicillin', ['Penicillin (rash)'])).toEqual([
      {
        drug: 'Amoxicillin',
        allergy: 'Penicillin (rash)',
        kind: 'same-class',
        drugClass: 'penicillins',
        message: 'Amoxicillin is a penicillin; the patient has a recorded penicillin allergy (“Penicillin (rash)”).',
      },
    ]);
  });

  it.each([
    ['Ceftriaxone 1 g IV', 'cephalosporins'],
    ['cefalexin', 'cephalosporins'],
    ['Cephalexin 500mg', 'cephalosporins'],
    ['Meropenem', 'carbapenems'],
    ['ertapenem 1g', 'carbapenems'],
    ['Imipenem-cilastatin', 'carbapenems'],
  ])('penicillin allergy + %s: cross-reactivity warning', (drug, drugClass) => {
    const alerts = drugAllergyAlerts(drug, ['Penicillin (anaphylaxis)']);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'cross-reactivity', drugClass });
    expect(alerts[0].message).toMatch(/warning, not a contraindication/);
    expect(alerts[0].message).toMatch(/low .* but real/);
  });

  it('an allergy to one penicillin (amoxicillin) also warns for a cephalosporin', () => {
    expect(kinds(drugAllergyAlerts('cefuroxime', ['amoxicillin - hives']))).toEqual(['cross-reactivity']);
  });

  it('does not model the reverse direction: a cephalosporin or carbapenem allergy does not alert for a penicillin', () => {
    expect(drugAllergyAlerts('Amoxicillin', ['Cefalexin (rash)'])).toEqual([]);
    expect(drugAllergyAlerts('flucloxacillin', ['cephalosporins'])).toEqual([]);
    expect(drugAllergyAlerts('piperacillin', ['meropenem'])).toEqual([]);
  });

  it('a cephalosporin allergy + another cephalosporin is same-class, not cross-reactivity', () => {
    expect(kinds(drugAllergyAlerts('ceftriaxone', ['cefalexin']))).toEqual(['same-class']);
  });

  it('beta-lactam allergy covers penicillins, cephalosporins and carbapenems', () => {
    for (const drug of ['amoxicillin', 'ceftriaxone', 'meropenem']) {
      expect(kinds(drugAllergyAlerts(drug, ['β-lactam antibiotics']))).toEqual(['same-class']);
    }
  });

  it('brand and generic names are the same drug', () => {
    const augmentin = drugAllergyAlerts('Augmentin 625 mg', ['co-amoxiclav']);
    expect(augmentin).toMatchObject([{ kind: 'same-drug', drugClass: 'penicillins' }]);
    expect(augmentin[0].message).toBe(
      'Augmentin (co-amoxiclav): the patient has a recorded allergy to this drug, recorded as co-amoxiclav (“co-amoxiclav”).',
    );
    expect(kinds(drugAllergyAlerts('Bactrim DS', ['Septrin']))).toEqual(['same-drug']);
    expect(kinds(drugAllergyAlerts('Nurofen 200mg', ['ibuprofen']))).toEqual(['same-drug']);
    expect(
      kinds(drugAllergyAlerts('meperidine', ['Pethidine'])).concat(kinds(drugAllergyAlerts('cephalexin', ['cefalexin']))),
    ).toEqual(['same-drug', 'same-drug']);
    expect(kinds(drugAllergyAlerts('acetylsalicylic acid 75 mg', ['aspirin']))).toEqual(['same-drug']);
  });

  it('a combination product meets an allergy to one of its ingredients, both ways', () => {
    const a = drugAllergyAlerts('Co-amoxiclav 625mg', ['Allergic to amoxicillin and latex']);
    expect(a).toMatchObject([{ kind: 'same-drug' }]);
    expect(a[0].message).toBe(
      'Co-amoxiclav contains amoxicillin; the patient has a recorded amoxicillin allergy (“Allergic to amoxicillin and latex”).',
    );
    expect(kinds(drugAllergyAlerts('amoxicillin/clavulanic acid', ['amoxicillin']))).toEqual(['same-drug']);
    expect(kinds(drugAllergyAlerts('Bactrim', ['trimethoprim']))).toEqual(['same-drug']);
    expect(drugAllergyAlerts('amoxicillin', ['Augmentin'])[0].message).toBe(
      'Amoxicillin is an ingredient of Augmentin; the patient has a recorded Augmentin allergy (“Augmentin”).',
    );
  });

  it('trimethoprim alone is not a sulfonamide', () => {
    expect(drugAllergyAlerts('Trimethoprim 200 mg', ['sulfa drugs'])).toEqual([]);
    expect(kinds(drugAllergyAlerts('Trimethoprim-sulfamethoxazole', ['sulfa drugs']))).toEqual(['same-class']);
  });

  it('sulfa allergy words', () => {
    for (const note of ['sulfa drugs', 'Sulpha', 'SULFONAMIDES (SJS)', 'sulphonamide']) {
      expect(drugAllergyAlerts('co-trimoxazole 960 mg', [note])).toMatchObject([
        { kind: 'same-class', drugClass: 'sulfonamides' },
      ]);
    }
  });

  it('NSAID allergy words, including aspirin for another NSAID', () => {
    expect(drugAllergyAlerts('Ibuprofen 400 mg', ['Aspirin (wheeze)'])[0].message).toBe(
      'Ibuprofen is an NSAID; the patient has a recorded aspirin allergy (“Aspirin (wheeze)”).',
    );
    expect(kinds(drugAllergyAlerts('naproxen', ['NSAIDs']))).toEqual(['same-class']);
    expect(kinds(drugAllergyAlerts('diclofenac', ['non-steroidal anti-inflammatory drugs']))).toEqual(['same-class']);
    expect(kinds(drugAllergyAlerts('aspirin', ['salicylates']))).toEqual(['same-class']);
  });

  it('opioid and quinolone allergy words', () => {
    expect(kinds(drugAllergyAlerts('codeine phosphate 30mg', ['opiates']))).toEqual(['same-class']);
    expect(kinds(drugAllergyAlerts('Ciprofloxacin', ['quinolones']))).toEqual(['same-class']);
    expect(kinds(drugAllergyAlerts('Ciprofloxacin', ['fluoroquinolones']))).toEqual(['same-class']);
  });

  it('normalises case, punctuation and whitespace', () => {
    expect(kinds(drugAllergyAlerts('  AMOXICILLIN\t500MG ', ['  PENICILLIN!!! \n (anaphylaxis) ']))).toEqual(['same-class']);
    expect(kinds(drugAllergyAlerts('amoxicillin', ['penicillin,amoxicillin;']))).toEqual(['same-drug']);
    const [alert] = drugAllergyAlerts('amoxicillin', ['Penicillin\n(rash)']);
    expect(alert.allergy).toBe('Penicillin (rash)');
  });

  it('finds the drug name inside strength and form text', () => {
    expect(drugAllergyAlerts('Amoxicillin 500 mg capsules', ['Penicillin (rash)'])).toMatchObject([
      {
        drug: 'Amoxicillin 500 mg capsules',
        kind: 'same-class',
        message: expect.stringMatching(/^Amoxicillin is a penicillin;/),
      },
    ]);
    expect(classOf('Amoxicillin500mg caps')).toBe('penicillins');
    expect(classOf('Tab. Ceftriaxone 1g')).toBe('cephalosporins');
    expect(classOf('Morphine sulfate 10 mg')).toBe('opioids');
  });

  it('no alert for unrelated drugs', () => {
    expect(drugAllergyAlerts('Paracetamol 1 g', ['Penicillin (rash)'])).toEqual([]);
    expect(drugAllergyAlerts('Metformin 500mg', ['sulfa', 'NSAIDs', 'codeine'])).toEqual([]);
    expect(classOf('paracetamol')).toBeUndefined();
    expect(classOf('')).toBeUndefined();
  });

  it('no alert for negative notes', () => {
    for (const note of ['NKDA', 'none', 'None.', 'No known drug allergies', 'nil', 'N/A', '', '   ']) {
      expect(drugAllergyAlerts('amoxicillin', [note])).toEqual([]);
    }
    expect(drugAllergyAlerts('', ['penicillin'])).toEqual([]);
  });

  it('matches whole words only', () => {
    expect(drugAllergyAlerts('co-trimoxazole', ['Ferrous sulfate (GI upset)'])).toEqual([]);
    expect(drugAllergyAlerts('Magnesium sulphate', ['sulpha'])).toEqual([]);
    expect(drugAllergyAlerts('apomorphine', ['morphine'])).toEqual([]);
    expect(drugAllergyAlerts('amoxicillin', ['penicillinase test negative?'])).toEqual([]);
    expect(drugAllergyAlerts('cefalexin', ['xcefalexinx'])).toEqual([]);
    // dihydrocodeine is an opioid like codeine, but not the same drug
    expect(kinds(drugAllergyAlerts('dihydrocodeine', ['codeine']))).toEqual(['same-class']);
    // benzylpenicillin is not named by "penicillin", only in its class
    expect(kinds(drugAllergyAlerts('benzylpenicillin', ['penicillin']))).toEqual(['same-class']);
  });

  it('multiple allergy notes give one alert each', () => {
    const alerts = drugAllergyAlerts('Ceftriaxone', ['Penicillin (rash)', 'ceftriaxone', 'NKDA', 'latex']);
    expect(alerts.map((a) => [a.allergy, a.kind])).toEqual([
      ['Penicillin (rash)', 'cross-reactivity'],
      ['ceftriaxone', 'same-drug'],
    ]);
  });

  it('one note naming several allergens gives one alert, the most serious kind', () => {
    expect(kinds(drugAllergyAlerts('ceftriaxone', ['penicillin, cefalexin and ceftriaxone']))).toEqual(['same-drug']);
    expect(kinds(drugAllergyAlerts('ceftriaxone', ['penicillin and cefalexin']))).toEqual(['same-class']);
  });

  it('a drug text naming two drugs is checked for each', () => {
    const alerts = drugAllergyAlerts('Amoxicillin + clarithromycin', ['penicillin and macrolides']);
    expect(alerts.map((a) => a.drugClass)).toEqual(['penicillins', 'macrolides']);
  });

  it('a drug outside the table still meets an allergy to exactly that drug', () => {
    expect(drugAllergyAlerts('Vancomycin 1 g IV', ['vancomycin (red man)'])).toEqual([
      {
        drug: 'Vancomycin 1 g IV',
        allergy: 'vancomycin (red man)',
        kind: 'same-drug',
        message: 'Vancomycin: the patient has a recorded allergy to this drug (“vancomycin (red man)”).',
      },
    ]);
    expect(drugAllergyAlerts('Paracetamol 500 mg tablets', ['latex'])).toEqual([]);
  });

  it('a class named as the drug', () => {
    expect(kinds(drugAllergyAlerts('Penicillin', ['Penicillin (rash)']))).toEqual(['same-drug']);
    expect(kinds(drugAllergyAlerts('penicillin', ['amoxicillin']))).toEqual(['same-class']);
  });

  it('is deterministic', () => {
    const a = drugAllergyAlerts('ceftriaxone', ['penicillin', 'cefalexin']);
    expect(drugAllergyAlerts('ceftriaxone', ['penicillin', 'cefalexin'])).toEqual(a);
  });
});
