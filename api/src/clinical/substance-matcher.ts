import { distance } from 'fastest-levenshtein';
import {
  displayName,
  ingredientsOf,
  MAX_TERM_WORDS,
  normalise,
  skeleton,
  TERM_INDEX,
  TERMS,
  WORDS_FROM,
  type Target,
  type Term,
  type Via,
} from './vocabulary';
import { BoundedMemo, Lru } from './lru';

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
  /** the vocabulary's name when the text is not it (a misspelling, abbreviation or brand); a product's ingredients;
   * "amoxicillin or ampicillin" when a misspelling is equally near several */
  readAs?: string;
  /** every substance an ambiguous misspelling may be (target is the first): each must be checked */
  candidates?: Target[];
  start: number;
  end: number;
}

export interface Token {
  word: string;
  start: number;
  end: number;
}

/**
 * A word: letters, digits and combining marks, with any invisible characters inside it (a
 * zero-width space or soft hyphen must not split "amoxi\u200bcillin"; normalise removes them).
 */
const WORD =
  /[\p{L}\p{N}\p{M}][\p{L}\p{N}\p{M}\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]*/gu;

/** The same, anchored: the whole word at a position. */
const WORD_AT = new RegExp(WORD.source, 'uy');
/** A character that continues a word beyond ASCII (é, а, a zero-width space). */
const WORD_CHAR_AT =
  /[\p{L}\p{N}\p{M}\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/uy;

/** 1: an ASCII letter, 2: a digit, 0: neither */
const asciiKind = (c: number) => ((c | 32) >= 97 && (c | 32) <= 122 ? 1 : c >= 48 && c <= 57 ? 2 : 0);

/**
 * Words with their place in the original text ("Amox-clav 500mg" → amox, clav, 500, mg). One pass:
 * runs of ASCII letters or digits directly; a word with anything beyond ASCII is read whole and
 * normalised (look-alike letters folded, invisible characters dropped).
 */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    const kind = c < 128 ? asciiKind(c) : 3;
    if (kind === 0) {
      i++;
      continue;
    }
    let j = i + 1;
    if (kind !== 3) {
      while (j < length && text.charCodeAt(j) < 128 && asciiKind(text.charCodeAt(j)) === kind) j++;
      WORD_CHAR_AT.lastIndex = j;
      if (j >= length || text.charCodeAt(j) < 128 || !WORD_CHAR_AT.test(text)) {
        out.push({ word: kind === 1 ? text.slice(i, j).toLowerCase() : text.slice(i, j), start: i, end: j });
        i = j;
        continue;
      }
    }
    WORD_AT.lastIndex = i;
    const m = WORD_AT.exec(text);
    if (!m) {
      i++;
      continue;
    }
    const end = i + m[0].length;
    for (const word of normalise(m[0]).split(' ')) if (word) out.push({ word, start: i, end });
    i = end;
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

/** FUZZY_TERMS by first letter and length ("a11"), so a word is compared only with names it could be near. */
const FUZZY_INDEX = new Map<string, Term[]>();
for (const t of FUZZY_TERMS) {
  const key = `${t.key[0]}${t.key.length}`;
  FUZZY_INDEX.set(key, [...(FUZZY_INDEX.get(key) ?? []), t]);
}

/** What a word was read as: the nearest name, or every name tied nearest (one term per target). */
export interface Misspelling {
  /** the first of `terms` */
  term: Term;
  /** more than one when several substances are equally near: each is a candidate */
  terms: Term[];
}

/** Words already looked at. */
const MISSPELLINGS = new BoundedMemo<string, Misspelling | null>(5000);

/**
 * The target a word is a misspelling of: the one strictly nearest name within the threshold; when
 * several substances tie nearest, all of them (terms), so the check can alert on each. Undefined if none.
 */
export function misspelling(word: string): Misspelling | undefined {
  const max = fuzzyThreshold(word.length);
  if (!max || !/^[a-z]+$/.test(word) || NOT_DRUGS.has(word)) return undefined;
  const cached = MISSPELLINGS.get(word);
  if (cached !== undefined) return cached ? { term: cached.term, terms: [...cached.terms] } : undefined;
  let best = Infinity;
  const nearest = new Map<string, Term>();
  for (let length = word.length - max; length <= word.length + max; length++) {
    for (const term of FUZZY_INDEX.get(`${word[0]}${length}`) ?? []) {
      const d = editDistance(word, term.key);
      if (d > max || d > best) continue;
      if (d < best) {
        best = d;
        nearest.clear();
      }
      const code = `${term.target.kind}:${term.target.id}`;
      if (!nearest.has(code)) nearest.set(code, term);
    }
  }
  // candidates in a stable order, whatever the vocabulary's: "amoxicillin or ampicillin"
  const terms = [...nearest.values()].sort((a, b) => a.target.id.localeCompare(b.target.id));
  const found = terms.length ? { term: terms[0], terms } : null;
  MISSPELLINGS.set(word, found);
  return found ?? undefined;
}

function lookup(key: string): Term | undefined {
  const exact = TERM_INDEX.get(key);
  if (exact) return exact;
  // a plural ("penicillins", "NSAIDs"), not for abbreviations
  if (key.endsWith('s') && /[a-z]{4,}s$/.test(key)) {
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

const MENTIONS = new Lru<string, Mention[]>(5000);

const copyMention = (m: Mention): Mention => (m.candidates ? { ...m, candidates: [...m.candidates] } : { ...m });

/** Every substance named in `text`, in order; overlapping names resolve to the longest. Memoised by text. */
export function findSubstances(text: string): Mention[] {
  let found = MENTIONS.get(text);
  if (!found) {
    found = scan(text);
    MENTIONS.set(text, found);
  }
  return found.map(copyMention);
}

/** The name a target reads as: a product as its ingredients ("Tylenol #3" → "codeine + paracetamol"). */
const readName = (target: Target) => (target.kind === 'product' ? ingredientsOf(target).join(' + ') : displayName(target));

function scan(text: string): Mention[] {
  return scanWords(text, tokens(text));
}

/** Normalised names by target, for "is the text the vocabulary's name?" */
const NORMALISED_NAMES = new Map<string, string>();
const normalisedName = (name: string) => {
  let n = NORMALISED_NAMES.get(name);
  if (n === undefined) NORMALISED_NAMES.set(name, (n = normalise(name)));
  return n;
};

/**
 * The substances named by `words` (tokens of `text`, or a run of them): offsets and matchedText
 * are in `text`. A reader that has tokenised a whole note scans each part of it without re-reading.
 */
export function scanWords(text: string, words: Token[]): Mention[] {
  const mentions: Mention[] = [];
  for (let i = 0; i < words.length;) {
    let found: { term: Term; length: number; misspelt?: Term[] } | undefined;
    // only names that can start with this word: most words start none of several words
    for (let n = Math.min(WORDS_FROM.get(words[i].word) ?? 1, MAX_TERM_WORDS, words.length - i); n >= 1 && !found; n--) {
      const term = lookup(
        n === 1
          ? words[i].word
          : words
              .slice(i, i + n)
              .map((w) => w.word)
              .join(' '),
      );
      if (term) found = { term, length: n };
    }
    if (!found) {
      const fuzzy = misspelling(words[i].word);
      if (fuzzy) found = { term: fuzzy.term, length: 1, misspelt: fuzzy.terms };
    }
    if (!found) {
      i++;
      continue;
    }
    const first = words[i];
    const last = words[i + found.length - 1];
    found = { ...found, term: byDoseUnit(found.term, words.slice(i + found.length, i + found.length + 3)) };
    const matchedText = text.slice(first.start, last.end);
    const target = found.term.target;
    const candidates = found.misspelt && found.misspelt.length > 1 ? found.misspelt.map((t) => t.target) : undefined;
    const name = candidates ? candidates.map(readName).join(' or ') : readName(target);
    // a name disguised by look-alike or invisible characters is shown as what it was read as
    const disguised = /[^\x20-\x7e]/.test(matchedText) && skeleton(matchedText) !== matchedText;
    const written =
      found.length === 1
        ? first.word
        : words
            .slice(i, i + found.length)
            .map((w) => w.word)
            .join(' ');
    const same = !disguised && (written === normalisedName(name) || (found.term.via === 'class' && !found.misspelt));
    mentions.push({
      target,
      via: found.misspelt ? 'misspelling' : found.term.via,
      matchedText,
      ...(same ? {} : { readAs: name }),
      ...(candidates ? { candidates } : {}),
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
  const rows = (fuzzy ? fuzzy.terms : hits)
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
