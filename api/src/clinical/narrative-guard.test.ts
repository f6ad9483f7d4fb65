import corpus from './narrative-corpus.json';
import {
  addedDiagnosis,
  addedNegation,
  contradiction,
  lostFinding,
  mergeNarrative,
  NARRATIVE_PROMPT,
  NARRATIVE_SECTIONS,
  narrativeOutcome,
  NarrativeRejected,
  narrativeViolation,
} from './narrative-guard';
import { DISCLAIMER } from './summary';

interface GuardCase {
  section: string;
  source: string;
  rewrite: string;
  expected: 'accept' | 'reject';
  rule?: string;
  why: string;
}

const cases = corpus.cases as GuardCase[];

// Hazard H19: a rewrite inverting findings ("denies chest pain; ACS ruled out") is refused.
describe('the narrative-guard corpus', () => {
  it('has at least 20 hostile and 8 benign rewrites', () => {
    expect(cases.filter((c) => c.expected === 'reject').length).toBeGreaterThanOrEqual(20);
    expect(cases.filter((c) => c.expected === 'accept').length).toBeGreaterThanOrEqual(8);
  });

  it.each(cases.filter((c) => c.expected === 'reject').map((c) => [c.rewrite, c] as const))('rejects "%s"', (_rewrite, c) => {
    expect(narrativeViolation(c.rewrite, c.source)).toMatchObject({ rule: c.rule });
  });

  it.each(cases.filter((c) => c.expected === 'accept').map((c) => [c.rewrite, c] as const))('accepts "%s"', (_rewrite, c) => {
    expect(narrativeViolation(c.rewrite, c.source)).toBeUndefined();
  });

  it('the unchanged source passes every rule', () => {
    for (const c of cases) expect(narrativeViolation(c.source, c.source)).toBeUndefined();
  });
});

describe('the rules one by one', () => {
  const review = '**Presenting complaints:** crushing central chest pain radiating to the left arm, haemoptysis';

  it('negation, exclusion and reassurance words: whole words, any case, only when the source lacks them', () => {
    expect(addedNegation('Patient DENIES chest pain', review)).toBe('denies');
    expect(addedNegation('ACS Ruled Out', review)).toBe('ruled out');
    expect(addedNegation('chest pain, troponin -ve', review)).toBe('-ve');
    expect(addedNegation("she doesn't have chest pain", review)).toBe("doesn't");
    expect(addedNegation('pain-free now', review)).toBe('pain-free');
    expect(addedNegation('nothing notable', review)).toBeUndefined(); // "not" inside a word
    expect(addedNegation('no fever', '**Presenting complaints:** chest pain, no fever')).toBeUndefined();
  });

  it('diagnoses and diagnostic wording: absent from the source; a synonym of a recorded one is the same', () => {
    expect(addedDiagnosis('chest pain: ACS', review)).toBe('acs');
    expect(addedDiagnosis('chest pain, likely cardiac', review)).toBe('likely');
    expect(addedDiagnosis('pain due to reflux', review)).toBe('reflux');
    expect(addedDiagnosis('previous myocardial infarction', '**Past medical history:** MI')).toBeUndefined();
    expect(addedDiagnosis('impressive pain', review)).toBeUndefined(); // "impression" only as a word
  });

  it('lost findings: spelling, plural and word form folded; stop words and field labels not required', () => {
    expect(lostFinding('hemoptysis and crushing central chest pains radiating to left arm', review)).toBeUndefined();
    expect(lostFinding('crushing central chest pain radiating to the left arm', review)).toBe('haemoptysis');
    expect(lostFinding('oedema of the ankles', '**Presenting complaints:** ankle edema')).toBeUndefined();
    expect(lostFinding('a tumor', '**Past medical history:** tumour')).toBeUndefined();
  });

  it('the owned topics of computed sections are still refused first', () => {
    expect(contradiction('No known drug allergies', review)).toBe('allergies');
    expect(narrativeViolation('Chest pain; NEWS2 0.', review)).toMatchObject({ rule: 'owned-topic' });
  });
});

describe('mergeNarrative with the review case', () => {
  const det = [
    '## Patient\n**Name:** X',
    '## Presenting complaint\n**Presenting complaints:** crushing central chest pain radiating to the left arm, haemoptysis',
    '## Key history\nNot recorded.',
    '## Alerts\nNo alerts.\n\n' + DISCLAIMER,
  ].join('\n\n');
  const answer = (complaint: string) =>
    det.replace('**Presenting complaints:** crushing central chest pain radiating to the left arm, haemoptysis', complaint);

  it('refuses the inversion, naming the section and the rule', () => {
    expect(() =>
      mergeNarrative(answer('Patient denies chest pain and haemoptysis; acute coronary syndrome ruled out.'), det),
    ).toThrow(/"Presenting complaint" adds "denies"/);
    try {
      mergeNarrative(answer('No chest pain.'), det);
    } catch (e) {
      expect(e).toBeInstanceOf(NarrativeRejected);
      expect((e as NarrativeRejected).violation).toMatchObject({ rule: 'negation', term: 'no' });
    }
  });

  it('takes a faithful rewrite', () => {
    expect(mergeNarrative(answer('Crushing central chest pain radiating to the left arm, with haemoptysis.'), det)).toContain(
      '## Presenting complaint\nCrushing central chest pain radiating to the left arm, with haemoptysis.',
    );
  });
});

describe('what the model is asked, and what of its answer is kept', () => {
  const det = [
    '## Patient\n**Name:** X',
    '## Presenting complaint\n**Presenting complaints:** cough for three days',
    '## Key history\nNot recorded.',
    '## Alerts\nNo alerts.\n\n' + DISCLAIMER,
  ].join('\n\n');
  const answer = (complaint: string) => det.replace('**Presenting complaints:** cough for three days', complaint);

  it('asks the model to rewrite exactly the sections the guard lets it rewrite', () => {
    const asked = /Rewrite only the sections (.*); copy every other section unchanged\./.exec(NARRATIVE_PROMPT)?.[1];
    expect(asked?.match(/"## ([^"]+)"/g)?.map((s) => s.slice(4, -1))).toEqual([...NARRATIVE_SECTIONS]);
  });

  it("keeps the model's rewrite, naming the model, when the guard takes it", () => {
    const outcome = narrativeOutcome(det, { text: answer('A cough for three days.'), model: 'm-1' });
    expect(outcome).toEqual({
      summary: expect.stringContaining('A cough for three days.'),
      source: 'model',
      rewrittenBy: { model: 'm-1' },
    });
  });

  it('keeps the deterministic text whole, naming no model, when the guard refuses it or the call failed', () => {
    const refused = narrativeOutcome(det, { text: answer('No cough; pneumonia ruled out.'), model: 'm-1' });
    expect(refused).toEqual({ summary: det, source: 'deterministic', error: expect.any(NarrativeRejected) });
    const failed = new Error('timeout');
    expect(narrativeOutcome(det, { error: failed })).toEqual({ summary: det, source: 'deterministic', error: failed });
  });
});
