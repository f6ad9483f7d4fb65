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
export const VOCABULARY_VERSION = '2026.11.2';

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
 * Characters that draw nothing but can split or disguise a name: the soft hyphen, zero-width and
 * other invisible format characters, the byte-order mark and the bidirectional controls.
 */
export const INVISIBLE = /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/gu;

/*
 * Cyrillic and Greek letters drawn like Latin ones, folded to the Latin letter before matching (the
 * skeleton idea of Unicode TR39, "Unicode Security Mechanisms": a focused table of the single-letter
 * look-alikes of a–z, after its confusables.txt). "аmoxicillin" with a Cyrillic а is amoxicillin.
 */
const CONFUSABLES: Record<string, string> = {
  // Cyrillic
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ɡ: 'g',
  ո: 'n',
  ս: 'u',
  ԍ: 'g',
  ӕ: 'ae',
  А: 'a',
  В: 'b',
  Е: 'e',
  К: 'k',
  М: 'm',
  Н: 'h',
  О: 'o',
  Р: 'p',
  С: 'c',
  Т: 't',
  Х: 'x',
  І: 'i',
  Ј: 'j',
  Ѕ: 's',
  Ү: 'y',
  Ԛ: 'q',
  Ԝ: 'w',
  Ӏ: 'l',
  // Greek
  ο: 'o',
  α: 'a',
  ν: 'v',
  ι: 'i',
  κ: 'k',
  ρ: 'p',
  υ: 'u',
  τ: 't',
  ϲ: 'c',
  ϳ: 'j',
  Α: 'a',
  Β: 'b',
  Ε: 'e',
  Ζ: 'z',
  Η: 'h',
  Ι: 'i',
  Κ: 'k',
  Μ: 'm',
  Ν: 'n',
  Ο: 'o',
  Ρ: 'p',
  Τ: 't',
  Υ: 'y',
  Χ: 'x',
  Ϲ: 'c',
  Ϳ: 'j',
};
const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'gu');

/**
 * Fold text to what it looks like: NFKC (full-width and other compatibility forms), invisible
 * characters removed, Cyrillic/Greek look-alikes as Latin letters. Every reader calls it through
 * normalise or tokens.
 */
export function skeleton(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(/β/g, 'beta')
    .replace(CONFUSABLE, (ch) => CONFUSABLES[ch]);
}

/**
 * Lower case, no accents, β → beta, letters and digits split apart ("500mg" → "500 mg"), other
 * characters → one space; after folding look-alike and invisible characters (skeleton).
 */
export function normalise(text: string): string {
  // the common case, plain ASCII words, skips the Unicode work
  let plain = /^[\x20-\x7e\n\t\r]*$/.test(text) ? text : skeleton(text).normalize('NFKD').replace(/\p{M}/gu, '');
  plain = plain.toLowerCase();
  if (/\d/.test(plain)) plain = plain.replace(/([a-z])(?=\d)/g, '$1 ').replace(/(\d)(?=[a-z])/g, '$1 ');
  return plain.replace(/[^a-z0-9]+/g, ' ').trim();
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
/** first word of a term of several words → the most words a term starting with it has */
export const WORDS_FROM = new Map<string, number>();
for (const t of TERMS) {
  const words = t.key.split(' ');
  if (words.length > 1) WORDS_FROM.set(words[0], Math.max(WORDS_FROM.get(words[0]) ?? 1, words.length));
}

const INGREDIENT_BY_ID = new Map(INGREDIENTS.map((i) => [i.id, i]));
const PRODUCT_BY_ID = new Map(PRODUCTS.map((p) => [p.id, p]));
export const ingredientById = (id: string): Ingredient | undefined => INGREDIENT_BY_ID.get(id);
export const productById = (id: string): Product | undefined => PRODUCT_BY_ID.get(id);

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
