import type { AllergyEntry } from './allergy-entry';
import { scanWords, tokens, type Mention, type Token } from './substance-matcher';
import { BoundedMemo, Lru } from './lru';
import { codeOf, displayName, ingredientsOf, ingredientById, lineage, normalise } from './vocabulary';

/*
 * Reading a free-text allergy note ("Penicillin (anaphylaxis)", "codeine – vomiting",
 * "no reaction to penicillin", "family history of penicillin allergy (mother)") into the entries it
 * states. Fail safe: text can only add. Every substance the note names is an entry; negation,
 * tolerance, delabelling, doubt and family-history cues only mark the entries they govern for
 * review (`review`), and a "no other allergies" governs nothing. Only a note naming no substance
 * ("NKDA", "none") yields nothing. An unreadable reaction keeps the entry an allergy.
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

/** The label was removed ("…, delabelled", "allergy refuted", "negative challenge to cefuroxime"). */
const DELABELLED =
  /\bde ?label+(ed|ing)?\b|\blabel removed\b|\ballergy removed\b|\bremoved from (the )?(allergy )?(list|record)\b|\brefuted\b|\bruled out\b|\bnegative (oral |drug )?(challenge|provocation|skin test|test)\w*/;

/** A cue that the substances after it (or, when none follow, in its segment) were tolerated. */
const TOLERANCE =
  /^(fine|ok|okay|safe|no problems?|no issues?|tolerated)$|\b(took|taken|takes?|given|received|had)\b[^.;]*\b(fine|ok|okay|safely|without (a )?(problems?|reactions?|issues?))\b|\btolerat\w*|\bno [a-z]+ allerg\w*|\bno (known )?(reaction|allerg\w*|problems?|issues?|side effects?)\b|\bnot allergic\b|\bnever (had )?(a )?(reaction|allerg\w*)|\bdenie[sd]\b|\bwithout (a )?(reaction|problems?|issues?)\b|\bfine with\b|\btakes? \w+ (safely|fine|without)/;

/** Doubt in the note itself ("? penicillin allergy", "penicillin allergy - query"). */
const UNCERTAIN =
  /\?|\b(query|queried|possible|possibly|probable|probably|questionable|unsure|uncertain|unclear|doubtful|suspected|maybe|not sure|unverified)\b/i;

/** "No other allergies", "NKDA otherwise": speaks of substances not named, so governs none. */
const OTHER =
  /\b(no|nil|nkda|nka|none|denies|denied|without|not|never) (any |known |other known )?(other|further|more|additional|else)\b|\botherwise\b|\b(nil|nothing|none|no) else\b/;
/** "No allergies other than penicillin": the cue does not reach what is excepted. */
const EXCEPT = /\b(other than|except|apart from|besides|aside from|save for)\b|\b(no|nil|none|nothing)\b.*\bbut\b/;

/** A segment that says "no allergy" in general ("NKDA", "nil", "none known"): states nothing. */
const BLANKET =
  /^(allerg(y|ies) )?(none|nil|na|n a|nkda|nka|nkfa|none known|not known|unknown|nil known|no known (drug )?allerg(y|ies)( to medications?)?|no (drug )?allergies)( known| reported| stated)?$/;

/** Family history, not the patient's own allergy. */
const FAMILY =
  /\bfamily (history|hx)\b|\bfhx?\b|\bfamilial\b|\b(mother|father|mum|mom|dad|sister|brother|sibling|parent|son|daughter|aunt|uncle|grand(mother|father|parent))( s)? (has|had|is|was)\b|\b(mother|father|mum|mom|dad|sister|brother|sibling|parent|son|daughter|aunt|uncle|grand(mother|father|parent))( s)?( (has|had|is|was))?( also)? (an? )?allerg\w*/;
const FAMILY_LABEL = /^\s*(mother|father|mum|mom|dad|sister|brother|sibling|parents?|son|daughter|aunt|uncle|grand\w+)\s*:/i;
const FAMILY_IN_PARENS =
  /\(\s*(mother|father|mum|mom|dad|sister|brother|sibling|parents?|son|daughter|aunt|uncle|grand\w+)\s*\)/i;
/** A segment that is only a relative ("penicillin allergy – mother"). */
const RELATIVE_ONLY =
  /^(in )?(the |his |her |pt s |patient s )?(mother|father|mum|mom|dad|sister|brother|sibling|parents?|son|daughter|aunt|uncle|grand\w+)( s)?( only)?$/;

/**
 * The words without which none of the cue patterns above can match: a segment with none of them
 * (most) skips the patterns. A word missing here could only lose a review mark, never an entry.
 */
const CUE_TRIGGERS = new Set(
  (
    'family fh fhx familial mother father mum mom dad sister brother sibling parent parents son daughter aunt uncle ' +
    'no nil nkda nka nkfa none na n denies denied without not never otherwise nothing other else except apart besides ' +
    'aside save but fine ok okay safe safely took taken take takes given received had de label removed refuted ruled ' +
    'negative query queried possible possibly probable probably questionable unsure uncertain unclear doubtful ' +
    'suspected maybe sure unverified unknown known'
  ).split(' '),
);
const cueTrigger = (w: string) =>
  CUE_TRIGGERS.has(w) || w.startsWith('tolerat') || w.startsWith('delabel') || w.startsWith('grand');

/** Separators: " and ", " & ", " plus ", a spaced dash; tried only where a space starts. */
const SPACED_SEPARATOR = /\s+(?:(?:and|&|plus)\s+|[–—-]\s+)/iy;

interface Segment {
  /** the segment as written, trimmed */
  text: string;
  start: number;
  end: number;
}

/**
 * Split a note at ";", ",", ". ", line breaks, " and ", "&" and spaced dashes — not inside
 * parentheses. One pass over the note; each segment keeps its place in it.
 */
function segments(note: string): Segment[] {
  const out: Segment[] = [];
  const push = (from: number, to: number) => {
    while (from < to && isSpace(note.charCodeAt(from))) from++;
    while (to > from && isSpace(note.charCodeAt(to - 1))) to--;
    if (to > from) out.push({ text: note.slice(from, to), start: from, end: to });
  };
  let depth = 0;
  let from = 0;
  for (let i = 0; i < note.length; i++) {
    const c = note.charCodeAt(i);
    if (c === 40 || c === 91)
      depth++; // ( [
    else if ((c === 41 || c === 93) && depth > 0) depth--; // ) ]
    if (depth > 0) continue;
    let skip = 0;
    if (c === 59 || c === 44 || c === 10)
      skip = 1; // ; , line break
    else if (c === 46 && (i + 1 === note.length || isSpace(note.charCodeAt(i + 1))))
      skip = 1; // ". "
    else if ((c === 32 || c === 9 || c === 13) && !isSpace(note.charCodeAt(i - 1))) {
      SPACED_SEPARATOR.lastIndex = i;
      skip = SPACED_SEPARATOR.exec(note)?.[0].length ?? 0;
    }
    if (!skip) continue;
    push(from, i);
    i += skip - 1;
    from = i + 1;
  }
  push(from, note.length);
  return out;
}

/** White space as \s reads it, for the characters notes hold. */
const isSpace = (c: number) =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 160 ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0xfeff ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0x1680;

interface Reading {
  label: string;
  severity?: ReactionSeverity;
  intoleranceWithOpioids?: boolean;
}

/** Any reaction word at all: most segments have none, and one test spares the list. */
const ANY_REACTION = new RegExp(REACTIONS.map((r) => r.pattern.source).join('|'));

/**
 * A segment of a note as read on its own (offsets within it): its words, substances and cues. The
 * same phrase recurs across a patient's notes ("Penicillin - anaphylaxis"), so it is read once.
 */
interface Part {
  text: string;
  words: Token[];
  /** normalised: its words (tokens are normalised) */
  n: string;
  mentions: Mention[];
  /** a cue word or "?", "(", ":" is present (most segments have none, and skip the patterns) */
  cued: boolean;
  family: boolean;
  /** "no other allergies", "other than": a cue that governs nothing */
  general: boolean;
  cue: RegExpExecArray | null;
  doubt: boolean;
  /** the review sentence for what the cue governs */
  why?: string;
  /** its reactions, once asked for */
  reactions?: Reading[];
}

const PARTS = new BoundedMemo<string, Part>(5000);

function partOf(text: string): Part {
  const known = PARTS.get(text);
  if (known) return known;
  const words = tokens(text);
  const n = words.map((t) => t.word).join(' ');
  const cued = /[?(:]/.test(text) || words.some((t) => cueTrigger(t.word));
  const family = cued && (FAMILY.test(n) || FAMILY_IN_PARENS.test(text) || FAMILY_LABEL.test(text) || RELATIVE_ONLY.test(n));
  const general = cued && (OTHER.test(n) || EXCEPT.test(n));
  const cue = !cued || general ? null : (TOLERANCE.exec(n) ?? DELABELLED.exec(n));
  const doubt = cued && !general && UNCERTAIN.test(text);
  const why = !cued
    ? undefined
    : family
      ? `family history, not necessarily the patient's own (the note says ${quote(text)})`
      : cue || doubt
        ? `the note says ${quote(text)}`
        : undefined;
  // one shape for every part (a spread or a later-added field makes every read of them slow)
  const part: Part = {
    text,
    words,
    n,
    mentions: scanWords(text, words),
    cued,
    family,
    general,
    cue,
    doubt,
    why,
    reactions: undefined,
  };
  PARTS.set(text, part);
  return part;
}

const reactionsOf = (part: Part): Reading[] => (part.reactions ??= reactionsOfNormalised(part.n));

/** The reactions of two segments read as one, in the list's order ("swelling" dropped beside a facial swelling). */
function merged(a: Reading[], b: Reading[]): Reading[] {
  const all = REACTIONS.filter((r) => a.includes(r) || b.includes(r));
  return all.some((r) => r.label === 'facial/airway swelling') ? all.filter((r) => r.label !== 'swelling') : all;
}

function reactionsOfNormalised(n: string): Reading[] {
  if (!ANY_REACTION.test(n)) return [];
  const found: Reading[] = [];
  for (const r of REACTIONS) {
    // "swelling" alone only when no more specific swelling was found
    if (r.label === 'swelling' && found.some((f) => f.label === 'facial/airway swelling')) continue;
    if (r.pattern.test(n) && !found.some((f) => f.label === r.label)) found.push(r);
  }
  return found;
}

const OPIOID = new Map<string, boolean>();
function isOpioid(m: Mention): boolean {
  const code = codeOf(m.target);
  let opioid = OPIOID.get(code);
  if (opioid === undefined) {
    opioid = (
      m.target.kind === 'class' ? lineage(m.target.id) : ingredientsOf(m.target).flatMap((i) => lineage(ingredientById(i)?.class))
    ).includes('opioids');
    OPIOID.set(code, opioid);
  }
  return opioid;
}

/** Words that say "allergy" rather than name a substance, for an uncoded substance's text. */
const FILLER =
  /\b(allergic|allergy|allergies|allergi|reaction|reactions|to|with|severe|mild|history|of|hx|known|patient|pt|has|had|reports?|causes?|caused|gave|gives|sensitivity|sensitive|nkda|nka|nkfa|nil|none|na)\b/gi;

/** Cue words, left out of an uncoded substance's text ("tolerated oral challenge" names no substance). */
const CUE_WORDS =
  /\b(no|not|never|nor|denies|denied|without|tolerated|tolerates|tolerating|took|taken|takes|given|received|fine|ok|okay|safely|problems?|issues?|side|effects?|negative|positive|skin|tests?|tested|oral|drug|challenge|provocation|delabell?ed|delabell?ing|de|label|labelled|removed|refuted|ruled|out|query|queried|possible|possibly|probable|questionable|unsure|uncertain|unclear|doubtful|suspected|maybe|since|in|on|at|the|a|an|and|or|family|fh|fhx|mother|father|mum|mom|dad|sister|brother|sibling|parents?|son|daughter|aunt|uncle|grand\w+|is|was|also|other|otherwise|else|further|any|more|after|before|by|for|from|as|child|childhood|year|years|ago|when|via|per|result|results|done|performed|clinic|then|now|again|previously|reported|confirmed|\d+)\b/gi;

/** Words that are never an uncoded substance: filler, cue and common reaction words. */
const PLAIN_WORDS = new Set(
  (
    'allergic allergy allergies reaction reactions to with severe mild history of hx known patient pt has had ' +
    'report reports cause causes caused gave gives sensitivity sensitive nkda nka nkfa nil none na no not never ' +
    'denies denied without tolerated tolerates took taken takes given received fine ok okay safely problem problems ' +
    'issue issues side effect effects negative positive skin test tests tested oral drug challenge provocation ' +
    'delabelled delabeled label removed refuted ruled out query possible possibly probable questionable unsure ' +
    'uncertain unclear doubtful suspected maybe since in on at the a an and or family fh fhx mother father mum mom ' +
    'dad sister brother sibling parent parents son daughter aunt uncle grandmother grandfather is was also other ' +
    'otherwise else further any more after before by for from as child childhood year years ago when via per ' +
    'anaphylaxis anaphylactic rash rashes hives urticaria itch itching itchy flushing flushed vomiting nausea ' +
    'swelling swollen lips tongue throat face wheeze wheezing angioedema blisters diarrhoea diarrhea drowsy ' +
    'headache dizziness confusion intolerance upset stomach'
  ).split(' '),
);

const NOTE_QUOTE = 80;
const quote = (text: string) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return `“${t.length > NOTE_QUOTE ? `${t.slice(0, NOTE_QUOTE - 1)}…` : t}”`;
};

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

/** Add a reason for review to an entry (several reasons are joined). */
function markForReview(entry: AllergyEntry, why: string): void {
  if (!entry.review) entry.review = why;
  else if (!entry.review.split('; ').includes(why)) entry.review = `${entry.review}; ${why}`;
}

/**
 * Shorthand read only inside an allergy note, where it cannot mean anything else ("Pen (anaphylaxis)");
 * in a drug text "pen" is an insulin or adrenaline pen.
 */
const NOTE_ONLY_ABBREVIATIONS: Record<string, string> = { pen: 'class:penicillins', pens: 'class:penicillins' };

/**
 * A bound on the entries read from one note (the most severe kept first), above what a note of the
 * contract's 1,000 characters can name (each substance takes 3 letters and a separator): no stored
 * note loses a substance to it; only longer text (a typed list) is bounded.
 */
export const MAX_ENTRIES_PER_NOTE = 250;

const READINGS = new Lru<string, AllergyEntry[]>(5000);

const copyEntry = (e: AllergyEntry): AllergyEntry => ({
  ...e,
  substance: { ...e.substance },
  reactions: e.reactions.map((r) => ({ ...r })),
});

/**
 * One free-text allergy note → the entries it states (unconfirmed, active). Every substance named is
 * an entry; a cue governing one marks it for review (`review`), never removes it. Memoised by note.
 */
export function readAllergyText(note: string): AllergyEntry[] {
  let read = READINGS.get(note);
  if (!read) {
    read = readNote(note);
    READINGS.set(note, read);
  }
  return read.map(copyEntry);
}

/** The text left once reactions, filler and (for a cue segment) cue words go: an uncoded substance, or ''. */
function leftoverOf(part: string, words: Token[], cue: boolean): string {
  // most segments left here are filler, cue and reaction words only: no regex work for them
  if (words.every((t) => PLAIN_WORDS.has(t.word) || /^\d+$/.test(t.word))) return '';
  let text = part
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[?]/g, ' ')
    .replace(FILLER, ' ');
  if (cue) text = text.replace(CUE_WORDS, ' ');
  text = text
    .replace(/[:–—-]\s*$/, '')
    .replace(/^\s*[:–—-]/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const left = normalise(text);
  if (reactionsOfNormalised(left).length || BLANKET.test(left) || NO_ALLERGY.test(left)) return '';
  return left.replace(/ /g, '').length >= 3 ? text : '';
}

function readNote(note: string): AllergyEntry[] {
  // "NKDA", "no known drug allergies": a short note only (a long one is read segment by segment)
  if (note.length <= 80 && NO_ALLERGY.test(normalise(note))) return [];
  const entries: AllergyEntry[] = [];
  const parts = segments(note).map((seg) => partOf(seg.text));
  /** the entries of the last segment that stated any: what a cue with no substance of its own speaks of */
  let previous: AllergyEntry[] = [];
  for (let p = 0; p < parts.length; p++) {
    const { text: part, n, mentions, words: own, cued, family, general, cue, doubt, why } = parts[p];

    if (!mentions.length && (why || general || (cued && BLANKET.test(n)))) {
      // a cue naming no substance: an uncoded one of its own ("no reaction to elastoplast"), else it
      // speaks of the segment before ("penicillin – no allergy", "… – delabelled"); "no other allergies" of none
      const leftover = why ? leftoverOf(part, own, true) : '';
      if (leftover) {
        const entry = entryFor(leftover, reactionsOf(parts[p]));
        markForReview(entry, why!);
        entries.push(entry);
        previous = [entry];
      } else if (why) {
        for (const e of previous) markForReview(e, why);
      }
      continue;
    }

    // reactions in the segment, or in the next segments when they name no substance and carry no cue
    // ("penicillin, rash, hives")
    let reactions = reactionsOf(parts[p]);
    while (p + 1 < parts.length) {
      const next = parts[p + 1];
      if (next.mentions.length || !reactionsOf(next).length) break;
      const nn = next.n;
      if (TOLERANCE.test(nn) || DELABELLED.test(nn) || UNCERTAIN.test(next.text) || FAMILY.test(nn) || OTHER.test(nn)) break;
      reactions = merged(reactions, reactionsOf(next));
      p++;
    }
    const stated: AllergyEntry[] = [];
    if (mentions.length) {
      // what a cue governs: what follows it ("tolerated cefalexin", "negative challenge to cefuroxime"),
      // or with nothing after it the whole segment ("amoxicillin – no reaction"); family history and
      // doubt govern the whole segment
      let governed = new Set<Mention>();
      if (family || doubt) governed = new Set(mentions);
      else if (cue) {
        const cueEnd = cueOffset(own, cue[0], part.length);
        const after = mentions.filter((m) => m.start >= cueEnd);
        governed = new Set(after.length ? after : mentions);
      }
      for (const m of mentions) {
        const targets = m.candidates ?? [m.target];
        const ambiguous = m.candidates
          ? `read as ${m.candidates.map((t) => displayName(t)).join(' or ')} — confirm the substance`
          : undefined;
        for (const target of targets) {
          const mention = { ...m, target };
          const entry = entryFor(m.matchedText, reactions, mention, isOpioid(mention));
          if (ambiguous) markForReview(entry, ambiguous);
          if (governed.has(m) && why) markForReview(entry, why);
          stated.push(entry);
        }
      }
    } else {
      // An uncoded substance ("latex", "elastoplast"): what is left once reactions and filler go.
      const leftover = leftoverOf(part, own, false);
      const shorthand = NOTE_ONLY_ABBREVIATIONS[normalise(leftover)];
      if (shorthand) stated.push({ ...entryFor(leftover, reactions), substance: { text: leftover, code: shorthand } });
      else if (leftover) stated.push(entryFor(leftover, reactions));
    }
    if (stated.length) {
      entries.push(...stated);
      previous = stated;
    }
  }
  return capped(unique(entries));
}

/** The same entry stated twice in one note is one entry. */
function unique(entries: AllergyEntry[]): AllergyEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const key = [
      e.substance.code ?? normalise(e.substance.text),
      e.type,
      e.criticality,
      e.reactions.map((r) => r.manifestation).join(','),
      e.review ?? '',
    ].join('|');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** At most MAX_ENTRIES_PER_NOTE, the high-criticality allergies first, then in the note's order. */
function capped(entries: AllergyEntry[]): AllergyEntry[] {
  if (entries.length <= MAX_ENTRIES_PER_NOTE) return entries;
  const rank = (e: AllergyEntry) => (e.criticality === 'high' ? 0 : e.type === 'allergy' ? 1 : 2);
  const kept = new Set(
    entries
      .map((e, i) => ({ e, i }))
      .sort((x, y) => rank(x.e) - rank(y.e) || x.i - y.i)
      .slice(0, MAX_ENTRIES_PER_NOTE)
      .map(({ e }) => e),
  );
  return entries.filter((e) => kept.has(e));
}

/** Where a cue found in the normalised text ends in the original text (its words, in note offsets). */
function cueOffset(words: { word: string; end: number }[], cue: string, fallback: number): number {
  const cueWords = cue.split(' ');
  for (let i = 0; i + cueWords.length <= words.length; i++) {
    if (cueWords.every((w, k) => words[i + k].word === w || (k === cueWords.length - 1 && words[i + k].word.startsWith(w))))
      return words[i + cueWords.length - 1].end;
  }
  return fallback;
}
