import { distance } from 'fastest-levenshtein';
import {
  displayName,
  ingredientsOf,
  MAX_TERM_WORDS,
  normalise,
  TERM_INDEX,
  TERMS,
  type Target,
  type Term,
  type Via,
} from './vocabulary';

/*
 * Finding the vocabulary's substances in free text ("Augmentin 625 mg tds", "amoxicilin",
 * "Tylenol #3", "Pen V"): whole words after normalising, longest match first, then a misspelling
 * that is close to exactly one name.
 */

export interface Mention {
  target: Target;
  via: Via | 'misspelling';
  /** the text as written in the input */
  matchedText: string;
  /** the vocabulary's name when the text is not it (a misspelling, abbreviation or brand); a product's ingredients */
  readAs?: string;
  start: number;
  end: number;
}

interface Token {
  word: string;
  start: number;
  end: number;
}

/** Words with their place in the original text ("Amox-clav 500mg" → amox, clav, 500, mg). */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    for (const word of normalise(m[0]).split(' ').filter(Boolean)) out.push({ word, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Words never read as a misspelt drug: they are close to no drug but common in notes. */
const NOT_DRUGS = new Set(
  (
    'allergy allergic allergies reaction reactions tablet tablets capsule capsules injection infusion syrup ' +
    'suspension solution history family mother father sister brother tolerated tolerates delabelled ' +
    'delabeled unknown swelling anaphylaxis anaphylactic angioedema urticaria vomiting nausea diarrhoea ' +
    'diarrhea headache drowsiness itching itchy blisters blistering wheeze wheezing breathless confirmed ' +
    'unconfirmed refuted previous patient daughter reported reports severe moderate intolerance intolerant ' +
    'sensitivity sensitive contact steroid inhaler patches plasters latex peanut peanuts shellfish'
  ).split(' '),
);

/**
 * The edit distance a misspelling may have from a name: none under 6 letters (abbreviations and
 * short names collide too easily), 1 up to 8 letters, 2 from 9.
 */
export const fuzzyThreshold = (length: number): number => (length < 6 ? 0 : length <= 8 ? 1 : 2);

/** Levenshtein distance, counting one swap of adjacent letters ("codiene") as one edit. */
function editDistance(a: string, b: string): number {
  const d = distance(a, b);
  if (d !== 2 || a.length !== b.length) return d;
  const diff = [...a].flatMap((ch, i) => (ch === b[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]] ? 1 : d;
}

const FUZZY_TERMS: Term[] = TERMS.filter((t) => t.via !== 'abbreviation' && !t.key.includes(' ') && t.key.length >= 5);

/** The one target a word is a misspelling of, with the name it was read as; undefined if none or ambiguous. */
export function misspelling(word: string): { term: Term } | undefined {
  const max = fuzzyThreshold(word.length);
  if (!max || !/^[a-z]+$/.test(word) || NOT_DRUGS.has(word)) return undefined;
  let best: { term: Term; d: number } | undefined;
  const targets = new Set<string>();
  for (const term of FUZZY_TERMS) {
    if (term.key[0] !== word[0] || Math.abs(term.key.length - word.length) > max) continue;
    const d = editDistance(word, term.key);
    if (d > max) continue;
    targets.add(`${term.target.kind}:${term.target.id}`);
    if (!best || d < best.d) best = { term, d };
  }
  return best && targets.size === 1 ? { term: best.term } : undefined;
}

function lookup(words: string[]): Term | undefined {
  const key = words.join(' ');
  const exact = TERM_INDEX.get(key);
  if (exact) return exact;
  // a plural ("penicillins", "NSAIDs"), not for abbreviations
  if (/[a-z]{4,}s$/.test(key)) {
    const singular = TERM_INDEX.get(key.slice(0, -1));
    if (singular && singular.via !== 'abbreviation') return singular;
  }
  return undefined;
}

/**
 * Abbreviations that name another drug when the dose unit says so: "Levo 100 mcg" is levothyroxine
 * (dosed in micrograms), "Levo 500 mg" levofloxacin.
 */
const BY_DOSE_UNIT: Record<string, { units: string[]; target: Target }> = {
  levo: { units: ['mcg', 'microgram', 'micrograms', 'ug'], target: { kind: 'ingredient', id: 'levothyroxine' } },
};

function byDoseUnit(term: Term, following: Token[]): Term {
  const rule = term.via === 'abbreviation' ? BY_DOSE_UNIT[term.key] : undefined;
  return rule && following.some((w) => rule.units.includes(w.word)) ? { ...term, target: rule.target } : term;
}

/** Every substance named in `text`, in order; overlapping names resolve to the longest. */
export function findSubstances(text: string): Mention[] {
  const words = tokens(text);
  const mentions: Mention[] = [];
  for (let i = 0; i < words.length;) {
    let found: { term: Term; length: number; misspelt?: boolean } | undefined;
    for (let n = Math.min(MAX_TERM_WORDS, words.length - i); n >= 1 && !found; n--) {
      const term = lookup(words.slice(i, i + n).map((w) => w.word));
      if (term) found = { term, length: n };
    }
    if (!found) {
      const fuzzy = misspelling(words[i].word);
      if (fuzzy) found = { term: fuzzy.term, length: 1, misspelt: true };
    }
    if (!found) {
      i++;
      continue;
    }
    const first = words[i];
    const last = words[i + found.length - 1];
    found = { ...found, term: byDoseUnit(found.term, words.slice(i + found.length, i + found.length + 3)) };
    const matchedText = text.slice(first.start, last.end);
    // a product reads as its ingredients ("Tylenol #3" → "codeine + paracetamol")
    const target = found.term.target;
    const name = target.kind === 'product' ? ingredientsOf(target).join(' + ') : displayName(target);
    const same = normalise(matchedText) === normalise(name) || (found.term.via === 'class' && !found.misspelt);
    mentions.push({
      target: found.term.target,
      via: found.misspelt ? 'misspelling' : found.term.via,
      matchedText,
      ...(same ? {} : { readAs: name }),
      start: first.start,
      end: last.end,
    });
    i += found.length;
  }
  return mentions;
}

/** One vocabulary suggestion for a typed prefix (an allergy form's substance picker). */
export interface SubstanceSuggestion {
  /** the vocabulary code to store: 'amoxicillin', 'class:penicillins', 'product:co-codamol' */
  code: string;
  /** the vocabulary's name */
  name: string;
  /** what was typed matched this way of writing it ('Augmentin', 'PCN') */
  matched: string;
  kind: Target['kind'];
}

/**
 * Vocabulary entries whose names start with the typed text (or, for 6+ letters, a misspelling of
 * one): classes first, then ingredients, then products; one row per substance; at most `limit`.
 */
export function suggestSubstances(query: string, limit = 10): SubstanceSuggestion[] {
  const q = normalise(query);
  if (!q) return [];
  const order = { class: 0, ingredient: 1, product: 2 } as const;
  const hits = TERMS.filter((t) => t.key.startsWith(q) || t.key.split(' ').some((w) => w.startsWith(q) && q.length >= 3));
  const fuzzy = !hits.length ? misspelling(q) : undefined;
  const rows = (fuzzy ? [fuzzy.term] : hits)
    .slice()
    .sort((a, b) => order[a.target.kind] - order[b.target.kind] || a.key.length - b.key.length || a.key.localeCompare(b.key));
  const out: SubstanceSuggestion[] = [];
  for (const t of rows) {
    const code = t.target.kind === 'ingredient' ? t.target.id : `${t.target.kind}:${t.target.id}`;
    if (out.some((o) => o.code === code)) continue;
    out.push({ code, name: displayName(t.target), matched: t.key, kind: t.target.kind });
    if (out.length >= limit) break;
  }
  return out;
}
