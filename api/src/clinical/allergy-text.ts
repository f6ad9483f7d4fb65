import type { AllergyEntry } from './medication-safety';
import { findSubstances, tokens, type Mention } from './substance-matcher';
import { codeOf, ingredientsOf, ingredientById, lineage, normalise } from './vocabulary';

/*
 * Reading a free-text allergy note ("Penicillin (anaphylaxis)", "codeine – vomiting",
 * "no reaction to penicillin", "family history of penicillin allergy (mother)") into the entries it
 * states. Conservative: an unreadable reaction keeps the entry an allergy; only explicit negation,
 * tolerance, delabelling or family history removes it.
 */

type ReactionSeverity = 'mild' | 'moderate' | 'severe';

interface ReactionWord {
  pattern: RegExp;
  label: string;
  /** undefined: an intolerance (a predictable side effect), not an allergic reaction */
  severity?: ReactionSeverity;
  /** itch/flushing from an opioid is direct mast-cell release (pseudo-allergy): an intolerance */
  intoleranceWithOpioids?: boolean;
}

/*
 * Reactions: severe = the reactions the issue and the 2022 practice parameter (Khan et al.) treat as
 * high risk (anaphylaxis, angioedema, SJS/TEN, DRESS, AGEP, airway or circulatory compromise, blistering);
 * moderate = urticaria/hives, rash, swelling, wheeze (allergic, not life-threatening as recorded);
 * mild = itch, flushing. Intolerances: the predictable side effects listed last.
 */
const REACTIONS: ReactionWord[] = [
  { pattern: /\banaphyla\w*/, label: 'anaphylaxis', severity: 'severe' },
  { pattern: /\bangio ?o?edema\b|\bangioneurotic\b|\bquincke/, label: 'angioedema', severity: 'severe' },
  { pattern: /\bsjs\b|\bstevens johnson\b/, label: 'Stevens–Johnson syndrome', severity: 'severe' },
  { pattern: /\btoxic epidermal necrolysis\b|\bten\b|\blyell/, label: 'toxic epidermal necrolysis', severity: 'severe' },
  { pattern: /\bdress\b|\bdihs\b|\bdrug reaction with eosinophilia/, label: 'DRESS', severity: 'severe' },
  { pattern: /\bagep\b|\bpustulosis\b/, label: 'AGEP', severity: 'severe' },
  {
    pattern:
      /\b(lips?|tongue|throat|face|facial|airway|mouth) (swell\w*|swollen|tight\w*|clos\w*)|\b(swell\w*|swollen) (of )?(the )?(lips?|tongue|throat|face|airway|mouth)\b/,
    label: 'facial/airway swelling',
    severity: 'severe',
  },
  {
    pattern: /\bbronchospasm\b|\bdifficulty breathing\b|\bcould not breathe\b|\bcouldn t breathe\b|\bstridor\b/,
    label: 'bronchospasm',
    severity: 'severe',
  },
  {
    pattern: /\bcollapse\w*|\bshock\b|\bcardiac arrest\b|\bhypotension\b|\bicu\b|\bintubat\w*|\bresus\w*/,
    label: 'collapse',
    severity: 'severe',
  },
  { pattern: /\bblister\w*|\bmucosal\b|\bskin peel\w*|\bpeeling\b/, label: 'blistering', severity: 'severe' },
  { pattern: /\bserum sickness\b/, label: 'serum sickness', severity: 'severe' },
  { pattern: /\bha?emolytic\b|\binterstitial nephritis\b|\bhepatitis\b/, label: 'organ involvement', severity: 'severe' },
  { pattern: /\burticaria\w*|\bhives\b|\bwheals?\b/, label: 'urticaria', severity: 'moderate' },
  { pattern: /\brash\w*|\bexanthem\w*|\bmaculopapular\b|\berythema\b|\bspots\b/, label: 'rash', severity: 'moderate' },
  { pattern: /\bwheez\w*|\bshort(ness)? of breath\b|\bbreathless\w*|\bsob\b/, label: 'wheeze', severity: 'moderate' },
  { pattern: /\bswell\w*|\bswollen\b|\boedema\b|\bedema\b/, label: 'swelling', severity: 'moderate' },
  { pattern: /\bitch\w*|\bpruritus\b|\bpruritic\b/, label: 'itch', severity: 'mild', intoleranceWithOpioids: true },
  { pattern: /\bflush\w*/, label: 'flushing', severity: 'mild', intoleranceWithOpioids: true },
  { pattern: /\bvomit\w*|\bemesis\b|\bthrew up\b/, label: 'vomiting' },
  { pattern: /\bnause\w*|\bsick\b/, label: 'nausea' },
  {
    pattern:
      /\bgi upset\b|\bgi intolerance\b|\b(upset )?stomach( upset| ache| pain)?\b|\babdominal pain\b|\bdyspeps\w*|\bindigestion\b/,
    label: 'GI upset',
  },
  { pattern: /\bdiarrho?ea\b|\bloose stools?\b/, label: 'diarrhoea' },
  { pattern: /\bconstipat\w*/, label: 'constipation' },
  { pattern: /\bdrows\w*|\bsedat\w*|\bsleepy\b|\bspaced out\b/, label: 'drowsiness' },
  { pattern: /\bheadaches?\b|\bmigraine\b/, label: 'headache' },
  { pattern: /\bdizz\w*|\blight ?headed\w*|\bvertigo\b/, label: 'dizziness' },
  { pattern: /\bpalpitations?\b|\bjitter\w*|\btremor\w*|\bshak\w*/, label: 'palpitations/tremor' },
  { pattern: /\bhallucinat\w*|\bconfus\w*|\bnightmares?\b/, label: 'confusion' },
  { pattern: /\bmyalgia\b|\bmuscle (pain|ache)s?\b/, label: 'muscle pain' },
  { pattern: /\bdry cough\b|\bcough\b/, label: 'cough' },
  { pattern: /\bthrush\b/, label: 'thrush' },
  { pattern: /\bintoleran\w*|\bside effects?\b/, label: 'intolerance' },
];

/** The whole note says there is no allergy. */
const NO_ALLERGY =
  /^(none|nil|no|na|n a|nkda|nka|nkfa|none known|not known|unknown|no known (drug )?allerg(y|ies)( to medications?)?|no (drug )?allerg(y|ies)|nil known)$/;

/** The label was removed: the whole note is not an allergy ("…, delabelled", "allergy refuted"). */
const DELABELLED =
  /\bde ?label+(ed|ing)?\b|\blabel removed\b|\ballergy removed\b|\bremoved from (the )?(allergy )?(list|record)\b|\brefuted\b|\bruled out\b|\bnegative (oral |drug )?(challenge|provocation|skin test|test)\w*/;

/** A cue that the substances after it (or, when none follow, in its segment) were tolerated. */
const TOLERANCE =
  /\b(took|taken|takes?|given|received|had)\b[^.;]*\b(fine|ok|okay|safely|without (a )?(problems?|reactions?|issues?))\b|\btolerat\w*|\bno [a-z]+ allerg\w*|\bno (known )?(reaction|allerg\w*|problems?|issues?|side effects?)\b|\bnot allergic\b|\bnever (had )?(a )?(reaction|allerg\w*)|\bdenies\b|\bwithout (a )?(reaction|problems?|issues?)\b|\bfine with\b|\btakes? \w+ (safely|fine|without)/;

/** Family history, not the patient's own allergy. */
const FAMILY =
  /\bfamily (history|hx)\b|\bfhx?\b|\bfamilial\b|\b(mother|father|mum|mom|dad|sister|brother|sibling|parent|son|daughter|aunt|uncle|grand(mother|father|parent))( s)? (has|had|is|was)\b|\b(mother|father|mum|mom|dad|sister|brother|sibling|parent|son|daughter|aunt|uncle|grand(mother|father|parent))( s)?( (has|had|is|was))? (an? )?allerg\w*/;
const FAMILY_LABEL = /^\s*(mother|father|mum|mom|dad|sister|brother|sibling|parents?|son|daughter|aunt|uncle|grand\w+)\s*:/i;
const FAMILY_IN_PARENS =
  /\(\s*(mother|father|mum|mom|dad|sister|brother|sibling|parents?|son|daughter|aunt|uncle|grand\w+)\s*\)/i;

/** Split a note at ";", ",", ". ", line breaks, " and ", "&" and spaced dashes — not inside parentheses. */
function segments(note: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < note.length; i++) {
    const ch = note[i];
    if (ch === '(' || ch === '[') depth++;
    if ((ch === ')' || ch === ']') && depth > 0) depth--;
    const rest = note.slice(i);
    const split =
      depth === 0 &&
      (/^[;,\n]/.test(rest) || /^\s+(and|&|plus)\s+/i.test(rest) || /^\s+[–—-]\s+/.test(rest) || /^[.](\s|$)/.test(rest));
    if (split) {
      out.push(current);
      current = '';
      const skip = /^(\s+(and|&|plus)\s+|\s+[–—-]\s+|.)/i.exec(rest)![0].length;
      i += skip - 1;
      continue;
    }
    current += ch;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter(Boolean);
}

interface Reading {
  label: string;
  severity?: ReactionSeverity;
  intoleranceWithOpioids?: boolean;
}

function reactionsIn(text: string): Reading[] {
  const n = normalise(text);
  const found: Reading[] = [];
  for (const r of REACTIONS) {
    // "swelling" alone only when no more specific swelling was found
    if (r.label === 'swelling' && found.some((f) => f.label === 'facial/airway swelling')) continue;
    if (r.pattern.test(n) && !found.some((f) => f.label === r.label)) found.push(r);
  }
  return found;
}

const isOpioid = (m: Mention) =>
  (m.target.kind === 'class'
    ? lineage(m.target.id)
    : ingredientsOf(m.target).flatMap((i) => lineage(ingredientById(i)?.class))
  ).includes('opioids');

/** Words that say "allergy" rather than name a substance, for an uncoded substance's text. */
const FILLER =
  /\b(allergic|allergy|allergies|allergi|reaction|reactions|to|with|severe|mild|history|of|hx|known|patient|pt|has|had|reports?|causes?|caused|gave|gives|sensitivity|sensitive)\b/gi;

function entryFor(text: string, reactions: Reading[], mention?: Mention, opioid = false): AllergyEntry {
  const allergic = reactions.filter((r) => r.severity && !(opioid && r.intoleranceWithOpioids));
  const intolerant = reactions.filter((r) => !r.severity || (opioid && r.intoleranceWithOpioids));
  const type = allergic.length === 0 && intolerant.length > 0 ? 'intolerance' : 'allergy';
  const severe = allergic.some((r) => r.severity === 'severe');
  const shown = type === 'allergy' ? [...allergic, ...intolerant] : intolerant;
  return {
    substance: mention ? { text: mention.matchedText, code: codeOf(mention.target) } : { text },
    type,
    criticality: severe ? 'high' : allergic.length ? 'low' : 'unable-to-assess',
    reactions: shown.map((r) => ({
      manifestation: r.label,
      ...(r.severity && type === 'allergy' && !(opioid && r.intoleranceWithOpioids) ? { severity: r.severity } : {}),
    })),
    clinicalStatus: 'active',
    verificationStatus: 'unconfirmed',
  };
}

/**
 * Shorthand read only inside an allergy note, where it cannot mean anything else ("Pen (anaphylaxis)");
 * in a drug text "pen" is an insulin or adrenaline pen.
 */
const NOTE_ONLY_ABBREVIATIONS: Record<string, string> = { pen: 'class:penicillins', pens: 'class:penicillins' };

/** One free-text allergy note → the entries it states (unconfirmed, active). */
export function readAllergyText(note: string): AllergyEntry[] {
  const whole = normalise(note);
  if (!whole || NO_ALLERGY.test(whole) || DELABELLED.test(whole)) return [];
  const entries: AllergyEntry[] = [];
  const parts = segments(note);
  /** how many entries the previous segment stated */
  let previous = 0;
  for (let p = 0; p < parts.length; p++) {
    const start = entries.length;
    const part = parts[p];
    const n = normalise(part);
    let mentions = findSubstances(part);
    const tolerance = TOLERANCE.exec(n);
    if (FAMILY.test(n) || FAMILY_IN_PARENS.test(part) || FAMILY_LABEL.test(part)) {
      previous = 0;
      continue;
    }
    if (tolerance && !mentions.length) {
      // "penicillin – no allergy": a cue with no substance of its own speaks of the segment before.
      entries.splice(start - previous, previous);
      previous = 0;
      continue;
    }
    if (tolerance) {
      // "tolerated cefalexin", "no reaction to penicillin": what follows the cue was tolerated;
      // "amoxicillin — no reaction": with nothing after the cue, the whole segment was.
      const cueEnd = cueOffset(part, tolerance[0]);
      const after = mentions.filter((m) => m.start >= cueEnd);
      mentions = after.length ? mentions.filter((m) => m.start < cueEnd) : [];
    }
    if (!tolerance || mentions.length) {
      // reactions in the segment, or in the next segments when they name no substance ("penicillin, rash, hives")
      let reactionText = part;
      while (p + 1 < parts.length && !findSubstances(parts[p + 1]).length && reactionsIn(parts[p + 1]).length) {
        reactionText += ` ${parts[++p]}`;
      }
      const reactions = reactionsIn(reactionText);
      if (mentions.length) {
        for (const m of mentions) entries.push(entryFor(m.matchedText, reactions, m, isOpioid(m)));
      } else {
        // An uncoded substance ("latex", "elastoplast"): what is left once reactions and filler go.
        const text = part
          .replace(/\([^)]*\)/g, ' ')
          .replace(FILLER, ' ')
          .replace(/[:–—-]\s*$/, '')
          .replace(/\s+/g, ' ')
          .trim();
        const leftover = reactionsIn(text).length ? '' : text;
        const shorthand = NOTE_ONLY_ABBREVIATIONS[normalise(leftover)];
        if (shorthand) entries.push({ ...entryFor(leftover, reactions), substance: { text: leftover, code: shorthand } });
        else if (normalise(leftover).replace(/ /g, '').length >= 3) entries.push(entryFor(leftover, reactions));
      }
    }
    previous = entries.length - start;
  }
  return entries;
}

/** Where a cue found in the normalised text ends in the original text. */
function cueOffset(original: string, cue: string): number {
  const words = tokens(original);
  const cueWords = cue.split(' ');
  for (let i = 0; i + cueWords.length <= words.length; i++) {
    if (cueWords.every((w, k) => words[i + k].word === w || (k === cueWords.length - 1 && words[i + k].word.startsWith(w))))
      return words[i + cueWords.length - 1].end;
  }
  return original.length;
}
