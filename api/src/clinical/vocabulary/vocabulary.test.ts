import { INTERACTION_GROUPS, INTERACTIONS, interactionsBetween, membersOf } from '../interactions';
import {
  CLASSES,
  classById,
  CROSS_REACTIVITY,
  codeOf,
  ingredientById,
  INGREDIENTS,
  PRODUCTS,
  targetOfCode,
  TERMS,
  VOCABULARY_VERSION,
} from '.';

describe('the substance vocabulary', () => {
  it('is versioned', () => {
    expect(VOCABULARY_VERSION).toMatch(/^\d{4}\.\d{2}\.\d+$/);
  });

  it('writes each name for exactly one substance', () => {
    const byKey = new Map<string, Set<string>>();
    for (const t of TERMS) byKey.set(t.key, (byKey.get(t.key) ?? new Set()).add(codeOf(t.target)));
    const ambiguous = [...byKey].filter(([, codes]) => codes.size > 1).map(([key, codes]) => `${key}: ${[...codes].join(', ')}`);
    expect(ambiguous).toEqual([]);
  });

  it('gives every entry a source, and ATC codes of the right shape', () => {
    for (const e of [...INGREDIENTS, ...PRODUCTS, ...CLASSES, ...CROSS_REACTIVITY]) expect(e.source.length).toBeGreaterThan(10);
    for (const e of [...INGREDIENTS, ...PRODUCTS])
      for (const atc of e.atc ?? []) expect(atc).toMatch(/^[A-Z]\d{2}[A-Z]{2}\d{2}$/);
  });

  it('only refers to ingredients and classes that exist', () => {
    for (const i of INGREDIENTS) if (i.class) expect(classById(i.class)).toBeDefined();
    for (const c of CLASSES) if (c.parent) expect(classById(c.parent)).toBeDefined();
    for (const p of PRODUCTS) for (const id of p.ingredients) expect(ingredientById(id)).toBeDefined();
    for (const rule of CROSS_REACTIVITY) {
      for (const s of [...rule.allergy, ...rule.drugs]) {
        expect(s.startsWith('class:') ? classById(s.slice(6)) : ingredientById(s)).toBeDefined();
      }
    }
    for (const group of Object.values(INTERACTION_GROUPS))
      for (const id of group.members) expect(ingredientById(id)).toBeDefined();
    for (const i of INTERACTIONS) {
      for (const k of [...i.a, ...i.b]) expect(INTERACTION_GROUPS[k] ?? ingredientById(k)).toBeDefined();
      expect(i.source).toBeTruthy();
    }
  });

  it('never compares a drug with itself, and a rule within one group only on purpose', () => {
    for (const i of INGREDIENTS) expect(interactionsBetween(i.id, i.id)).toEqual([]);
    const overlapping = INTERACTIONS.filter((i) => !i.withinGroup)
      .filter((i) => membersOf(i.a).some((m) => membersOf(i.b).includes(m)))
      .map((i) => i.id);
    expect(overlapping).toEqual([]);
    for (const i of INTERACTIONS.filter((r) => r.withinGroup)) expect(i.a).toEqual(i.b);
    // two potassium-sparing diuretics are not the potassium rule; spironolactone with potassium is
    expect(interactionsBetween('spironolactone', 'amiloride')).toEqual([]);
    expect(interactionsBetween('spironolactone', 'potassium chloride').map((i) => i.id)).toEqual(['potassium-sparing-potassium']);
  });

  it('round-trips codes', () => {
    expect(targetOfCode('amoxicillin')).toEqual({ kind: 'ingredient', id: 'amoxicillin' });
    expect(targetOfCode('class:penicillins')).toEqual({ kind: 'class', id: 'penicillins' });
    expect(targetOfCode('product:co-codamol')).toEqual({ kind: 'product', id: 'co-codamol' });
    expect(targetOfCode('unobtainium')).toBeUndefined();
    expect(targetOfCode('class:unobtainium')).toBeUndefined();
  });

  it('holds every drug the review found missing', () => {
    for (const id of [
      'pivmecillinam',
      'ticarcillin',
      'cefdinir',
      'cefprozil',
      'cefotetan',
      'ceftolozane',
      'cefiderocol',
      'aztreonam',
    ])
      expect(ingredientById(id)).toBeDefined();
  });
});
