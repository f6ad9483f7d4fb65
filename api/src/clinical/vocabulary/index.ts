import { CLASSES, classById, lineage, type DrugClass } from './classes';
import { CROSS_REACTIVITY, type CrossReactivity } from './cross-reactivity';
import { INGREDIENTS, type Ingredient } from './ingredients';
import { PRODUCTS, type Product } from './products';

/*
 * The substance vocabulary of the medication-safety check: ingredients (with WHO ATC codes where
 * they have one), drug classes, cross-reactivity rules, brand and regional names, abbreviations and
 * combination products, each entry with its source. Bump the version whenever an entry changes: an
 * alert records which vocabulary produced it.
 */
export const VOCABULARY_VERSION = '2026.11.1';

export { CLASSES, classById, CROSS_REACTIVITY, INGREDIENTS, lineage, PRODUCTS };
export type { CrossReactivity, DrugClass, Ingredient, Product };

export type Target = { kind: 'ingredient' | 'product' | 'class'; id: string };
export type Via = 'name' | 'synonym' | 'brand' | 'abbreviation' | 'class';

/** One way of writing a substance. */
export interface Term {
  /** normalised words */
  key: string;
  target: Target;
  via: Via;
}

/**
 * Lower case, no accents, β → beta, letters and digits split apart ("500mg" → "500 mg"), other
 * characters → one space.
 */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/β/g, 'beta')
    .replace(/([a-z])(?=\d)/g, '$1 ')
    .replace(/(\d)(?=[a-z])/g, '$1 ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function buildTerms(): Term[] {
  const terms: Term[] = [];
  const add = (text: string, target: Target, via: Via) => {
    const key = normalise(text);
    if (key) terms.push({ key, target, via });
  };
  for (const i of INGREDIENTS) {
    const target = { kind: 'ingredient', id: i.id } as const;
    add(i.id, target, 'name');
    i.synonyms?.forEach((s) => add(s, target, 'synonym'));
    i.brands?.forEach((s) => add(s, target, 'brand'));
    i.abbreviations?.forEach((s) => add(s, target, 'abbreviation'));
  }
  for (const p of PRODUCTS) {
    const target = { kind: 'product', id: p.id } as const;
    p.names.forEach((s) => add(s, target, 'name'));
    p.brands?.forEach((s) => add(s, target, 'brand'));
    p.abbreviations?.forEach((s) => add(s, target, 'abbreviation'));
  }
  for (const c of CLASSES) {
    const target = { kind: 'class', id: c.id } as const;
    c.terms.forEach((s) => add(s, target, s.length <= 4 ? 'abbreviation' : 'class'));
  }
  return terms;
}

export const TERMS: Term[] = buildTerms();
/** normalised words → the term (the vocabulary test checks each key names one target) */
export const TERM_INDEX = new Map<string, Term>(TERMS.map((t) => [t.key, t]));
/** the longest term, in words */
export const MAX_TERM_WORDS = Math.max(...TERMS.map((t) => t.key.split(' ').length));

export const ingredientById = (id: string): Ingredient | undefined => INGREDIENTS.find((i) => i.id === id);
export const productById = (id: string): Product | undefined => PRODUCTS.find((p) => p.id === id);

/** A target's code: 'amoxicillin', 'class:penicillins', 'product:co-codamol'. */
export const codeOf = (t: Target): string => (t.kind === 'ingredient' ? t.id : `${t.kind}:${t.id}`);

export function targetOfCode(code: string): Target | undefined {
  const [kind, id] = code.includes(':') ? code.split(/:(.*)/s) : ['ingredient', code];
  if (kind === 'ingredient' && ingredientById(id)) return { kind, id };
  if (kind === 'product' && productById(id)) return { kind, id };
  if (kind === 'class' && classById(id)) return { kind, id };
  return undefined;
}

/** How a target reads in a message: 'amoxicillin', 'co-codamol', 'penicillin'. */
export function displayName(t: Target): string {
  return t.kind === 'class' ? (classById(t.id)?.name ?? t.id) : t.id;
}

/** The ingredients a target stands for ([] for a class). */
export function ingredientsOf(t: Target): string[] {
  if (t.kind === 'ingredient') return [t.id];
  if (t.kind === 'product') return productById(t.id)?.ingredients ?? [];
  return [];
}
