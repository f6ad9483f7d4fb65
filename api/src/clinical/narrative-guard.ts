import { DISCLAIMER } from './summary';

/*
 * What a language model may say when it rewrites a summary's narrative (pure: text in, verdict
 * out). The model only ever rewrites the prose of the NARRATIVE sections (presenting complaint, key
 * history); every other section is computed and copied verbatim from the deterministic summary.
 * `mergeNarrative` throws NarrativeRejected — the caller then stores the deterministic text — when
 * the answer changes the headings or its prose breaks a rule below.
 */

/** The only sections whose prose the model may rewrite. */
export const NARRATIVE_SECTIONS = ['Presenting complaint', 'Key history'] as const;

/**
 * What the model is asked (its system message): the rules mergeNarrative then enforces, with the
 * narrative sections named from NARRATIVE_SECTIONS, so the request and the guard cannot drift apart.
 */
export const NARRATIVE_PROMPT = [
  'You are a clinical documentation assistant. You receive the structured summary of one medical record in a restricted Markdown.',
  'Rewrite the narrative sections in clear, concise clinical prose for a doctor. Use only the facts in the text: add nothing, infer no diagnosis, drop no finding.',
  'Formatting: only "## " headings and **bold**; no other Markdown (no lists, tables, links or code).',
  `Rewrite only the sections ${NARRATIVE_SECTIONS.map((s) => `"## ${s}"`).join(' and ')}; copy every other section unchanged.`,
  'Keep every "## " heading of the input, with the same wording and in the same order, and add no heading.',
  'Do not mention allergies, scores, alerts, vital signs, medication or discharge in the rewritten sections.',
  'Answer with the rewritten summary only.',
].join('\n');

export interface NarrativeOutcome {
  summary: string;
  /** 'model' when the rewrite was used; otherwise why the deterministic text was kept */
  source: 'model' | 'deterministic';
  /**
   * Present only when the model's narrative was kept: the model configured (SUMMARY_LLM_MODEL), so
   * the caller can label the summary "Narrative rewritten by <model> at <time>; computed sections
   * unchanged".
   */
  rewrittenBy?: { model: string };
  error?: unknown;
}

/**
 * The summary to store from the model's answer: its rewrite merged with the computed sections, or,
 * when the guard refuses it or there is no answer (`{ error }`: the call failed), the deterministic
 * text whole.
 */
export function narrativeOutcome(
  deterministic: string,
  answer: { text: string; model: string } | { error: unknown },
): NarrativeOutcome {
  if ('error' in answer) return { summary: deterministic, source: 'deterministic', error: answer.error };
  try {
    return { summary: mergeNarrative(answer.text, deterministic), source: 'model', rewrittenBy: { model: answer.model } };
  } catch (error) {
    return { summary: deterministic, source: 'deterministic', error };
  }
}

const MAX_SUMMARY_CHARS = 50_000;

/** The model's answer may not be used; the message says why, `violation` which prose rule it broke. */
export class NarrativeRejected extends Error {
  constructor(
    message: string,
    readonly violation?: NarrativeViolation,
  ) {
    super(message);
    this.name = 'NarrativeRejected';
  }
}

interface Section {
  title: string;
  lines: string[];
}

const key = (title: string) => title.replace(/[:*]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

/** Splits restricted Markdown at its "## " headings; text before the first heading is dropped. */
function sections(markdown: string): Section[] {
  const out: Section[] = [];
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) out.push({ title: heading[1].replace(/\*\*/g, '').trim(), lines: [] });
    else out[out.length - 1]?.lines.push(line);
  }
  return out;
}

/*
 * Topics the computed sections own. A narrative line may name one only where the deterministic
 * text of the same section already does ("Drug history: metformin"): otherwise it could contradict
 * a computed section ("No known drug allergies", "NEWS2 0", "safe for discharge", "sepsis excluded").
 */
const OWNED_TOPICS: readonly RegExp[] = [
  /allerg\w*/gi,
  /\bnk(?:d|f)?a\b/gi,
  /\bnews\s*-?\s*2?\b/gi,
  /\bscor\w*/gi,
  /\balert\w*/gi,
  /discharg\w*/gi,
  /\bsafe\w*/gi,
  /\bseps\w*|\bseptic\w*/gi,
  /\bstable\b/gi,
  /\bnormal\w*/gi,
  /\bvital\w*/gi,
  /\bspo2\b|saturat\w*|\boxygen\w*/gi,
  /blood pressure|\bbp\b|hypertens\w*|hypotens\w*/gi,
  /\bpulse\b|heart rate|tachycard\w*|bradycard\w*/gi,
  /\btemperature\b|\bafebrile\b|\bpyrexi\w*/gi,
  /glucose|\bsugar\b|glyc\w*/gi,
  /prescri\w*|\bdos(?:e|age|ing)\w*|\bmg\b|antibiotic\w*/gi,
  /\d+(?:[.,]\d+)?/g,
];

/** The first owned term the model's prose names that the deterministic prose does not, if any. */
export function contradiction(modelBody: string, deterministicBody: string): string | undefined {
  const source = deterministicBody.toLowerCase();
  for (const topic of OWNED_TOPICS) {
    for (const m of modelBody.matchAll(topic)) {
      if (!source.includes(m[0].toLowerCase())) return m[0];
    }
  }
  return undefined;
}

// ------------------------------------------------------------------ findings kept, none inverted

/*
 * The rules below compare the model's prose of one narrative section with the deterministic prose
 * of the same section (clinical-safety review: "crushing central chest pain … haemoptysis" came
 * back as "Patient denies chest pain and haemoptysis; acute coronary syndrome ruled out"). A
 * rewrite may reword and reorder; it may not deny, exclude, reassure, diagnose or drop. They err on
 * the side of refusing: a refused rewrite costs only the deterministic text being stored.
 */

/** Why the guard refuses a rewrite: the rule, the term of the rewrite (or source) it is about. */
export interface NarrativeViolation {
  rule: 'owned-topic' | 'negation' | 'diagnosis' | 'negated-finding' | 'lost-negation' | 'lost-finding';
  term: string;
  reason: string;
}

/** A family of words matched whole and case-insensitively; present in a text if any of them is. */
interface Family {
  name: string;
  pattern: RegExp;
}

const family = (name: string, ...alternatives: string[]): Family => ({
  name,
  pattern: new RegExp(`(?<![\\w-])(?:${alternatives.join('|')})(?![\\w-])`, 'gi'),
});

/*
 * Negation, exclusion and reassurance: the words that turn a finding into its absence ("denies
 * chest pain"), rule a diagnosis out ("ACS ruled out") or play a finding down ("mild", "settled").
 * A rewrite may use one only where the deterministic prose already does. `forward`: the word
 * negates what follows it ("no fever"); the others may also negate what precedes ("PE excluded").
 */
const NEGATIONS: readonly (Family & { forward?: boolean })[] = [
  { ...family('no', 'no'), forward: true },
  { ...family('not', 'not', "\\w+n't", 'cannot'), forward: true },
  { ...family('none', 'none'), forward: true },
  { ...family('nil', 'nil'), forward: true },
  { ...family('never', 'never'), forward: true },
  { ...family('nor', 'nor', 'neither'), forward: true },
  { ...family('without', 'without', 'lack(?:s|ing)?', 'absence of'), forward: true },
  { ...family('free of', 'free of', '\\w+-free', 'free'), forward: true },
  { ...family('non', 'non(?:-\\w+)?'), forward: true },
  family('former', 'ex-\\w+', 'former(?:ly)?', 'quit', 'stopped', 'gave up', 'no longer'),
  family('denies', 'den(?:y|ies|ied|ying)'),
  family('negative', 'negative', '-ve'),
  family('absent', 'absent'),
  family('ruled out', 'rul(?:e|ed|es|ing) out'),
  family('excluded', 'exclud(?:e|ed|es|ing)', 'exclusion'),
  family('normal', 'normal(?:ly|ised|ized)?', 'nad', 'wnl', 'within normal limits'),
  family('unremarkable', 'unremarkable'),
  family('resolved', 'resol(?:ved|ving|ves|ution)'),
  family('benign', 'benign'),
  family('reassuring', 'reassur(?:e|ed|ing|ance)'),
  family('settled', 'settled', 'subsided', 'abated', 'disappeared', 'gone'),
  family('improved', 'improv(?:ed|ing|es|ement)', 'recover(?:ed|ing|y)', 'better'),
  family('clear', 'clear'),
  family('mild', 'mild(?:ly)?', 'minor', 'slight(?:ly)?', 'trivial', 'insignificant', 'non-?specific', 'atypical'),
];

/*
 * Diagnoses and the words that state one. The deterministic summary never concludes: a diagnosis
 * the record does not name ("acute coronary syndrome ruled out", "likely musculoskeletal") is the
 * model's inference. Synonyms and abbreviations share a family, so "MI" may become "myocardial
 * infarction". ae/e and oe/e spellings are both written into the patterns.
 */
const DIAGNOSES: readonly Family[] = [
  family('acute coronary syndrome', 'acute coronary syndromes?', 'acs'),
  family('myocardial infarction', 'myocardial infarct(?:ion)?s?', 'mi', 'n?stemi', 'heart attacks?', 'infarct(?:ion)?s?'),
  family('angina', 'angina'),
  family('ischaemic heart disease', 'isch(?:a)?emi\\w*', 'ihd', 'coronary (?:artery|heart) disease', 'cad', 'chd'),
  family('pulmonary embolism', 'pulmonary embol\\w*', 'pe', 'embol\\w*'),
  family('deep vein thrombosis', 'deep vein thrombosis', 'dvt', 'thrombo(?:sis|ses|tic|embolism)', 'thrombus', 'clots?'),
  family('pneumonia', 'pneumonia', 'lrti', '(?:lower )?respiratory tract infections?', 'chest infections?'),
  family('upper respiratory tract infection', 'urti', 'common cold'),
  family('bronchitis', 'bronchitis'),
  family('sepsis', 'seps[ie]s', 'septic\\w*', 'septic(?:a)?emia', 'bacter(?:a)?emia'),
  family('stroke', 'strokes?', 'cva', 'cerebrovascular accidents?'),
  family('TIA', 'tia', 'transient isch(?:a)?emic attacks?'),
  family('asthma', 'asthma\\w*'),
  family('COPD', 'copd', 'chronic obstructive pulmonary disease', 'emphysema'),
  family('heart failure', '(?:heart|cardiac|ventricular) failure', 'chf', 'ccf', 'lvf'),
  family('reflux', 'gerd', 'gord', 'reflux', '(?:gastro-?)?(?:o)?esophag(?:eal|itis)', 'heartburn', 'dyspepsia', 'indigestion'),
  family(
    'anxiety',
    'anxiety',
    'anxious',
    'panic(?: attacks?)?',
    'hyperventilat\\w*',
    'psychogenic',
    'psychosomatic',
    'functional',
  ),
  family('musculoskeletal', 'musculoskeletal', 'msk', 'muscular', 'muscle strain', 'strain(?:ed)?', 'chest wall pain'),
  family('costochondritis', 'costochondritis', 'tietze\\w*'),
  family('gastritis', 'gastritis', 'peptic ulcers?', 'ulcers?', 'pud'),
  family('UTI', 'uti', 'urinary tract infections?', 'cystitis', 'pyelonephritis'),
  family('appendicitis', 'appendicitis'),
  family('migraine', 'migraines?', 'tension(?:-type)? headaches?', 'cluster headaches?'),
  family('pericarditis', 'pericarditis', 'myocarditis', 'endocarditis'),
  family('aortic dissection', '(?:aortic )?dissection', 'aaa', 'aneurysms?'),
  family('haemorrhage', '(?:subarachnoid |intracranial |intracerebral )?h(?:a)?emorrhag\\w*', 'sah'),
  family('pneumothorax', 'pneumothora(?:x|ces)', 'ptx'),
  family('tuberculosis', 'tb', 'tuberculosis'),
  family(
    'cancer',
    'cancers?',
    'malignan\\w*',
    'carcinomas?',
    'tumou?rs?',
    'neoplas\\w*',
    'metasta\\w*',
    'lymphomas?',
    'leuk(?:a)?emias?',
  ),
  family('viral infection', 'covid(?:-19)?', 'coronavirus', 'influenza', 'flu', 'viral', 'virus(?:es)?'),
  family('infection', 'infections?', 'infective', 'infected'),
  family('gastroenteritis', 'gastroenteritis', 'food poisoning'),
  family('biliary disease', 'cholecystitis', 'gallstones?', 'biliary colic', 'cholelithiasis'),
  family('pancreatitis', 'pancreatitis'),
  family('diverticulitis', 'diverticul\\w*'),
  family('meningitis', 'meningitis', 'encephalitis'),
  family('cellulitis', 'cellulitis'),
  family('atrial fibrillation', 'af', 'atrial fibrillation', 'atrial flutter', 'arrhythmias?', 'svt'),
  family('diabetes', 'diabet\\w*', 'dm', 't[12]dm', 'n?iddm', 'type [12] diabetes'),
  family('depression', 'depression', 'depressive'),
  family('anaemia', 'an(?:a)?emi\\w*'),
  family('pleurisy', 'pleurisy'),
  family('kidney disease', 'ckd', 'aki', '(?:chronic kidney|renal) disease', 'acute kidney injury', 'renal failure'),
  family('epilepsy', 'epilep\\w*'),
  family('vasovagal', 'vasovagal'),
  family('arthritis', '\\w*arthritis', 'gout'),
];

/* Words that state a diagnosis or a cause whatever its name ("consistent with", "likely"). */
const DIAGNOSTIC_CUES: readonly Family[] = [
  family('diagnosis', 'diagnos\\w*', 'differentials?', 'impression', 'dx'),
  family('consistent with', '(?:consistent|in keeping|compatible) with'),
  family('likely', '(?:un)?likely', 'probabl[ey]', 'possibl[ey]', 'presum\\w*', 'query'),
  family('suspected', 'suspect\\w*', 'suspicious'),
  family('suggestive of', 'suggest\\w*', 'indicative of', 'indicates?', 'typical of'),
  family('secondary to', 'secondary to', 'due to', 'caused by', 'attribut\\w*', 'because of'),
  family('confirmed', 'confirm\\w*'),
];

/** Lower case, one kind of apostrophe, no bold markers. */
const prose = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/\*+/g, ' ');
const has = (f: Family, text: string) => prose(text).match(f.pattern) !== null;
const first = (f: Family, text: string) => prose(text).match(f.pattern)?.[0] ?? f.name;

/** The first negation, exclusion or reassurance word the rewrite uses and the source does not. */
export function addedNegation(rewrite: string, source: string): string | undefined {
  const found = NEGATIONS.find((f) => has(f, rewrite) && !has(f, source));
  return found && first(found, rewrite);
}

/** The first diagnosis name or diagnostic wording the rewrite uses and the source does not. */
export function addedDiagnosis(rewrite: string, source: string): string | undefined {
  const found = [...DIAGNOSES, ...DIAGNOSTIC_CUES].find((f) => has(f, rewrite) && !has(f, source));
  return found && first(found, rewrite);
}

/* A diagnosis family stands for one token in the word comparisons: "MI" kept as "myocardial infarction". */
const DIAGNOSIS_TOKEN = 'zzdiagnosis';
const display = (w: string) => (w.startsWith(DIAGNOSIS_TOKEN) ? DIAGNOSES[Number(w.slice(DIAGNOSIS_TOKEN.length))].name : w);

/*
 * Content words: what a finding is made of. Stop words and filler ("patient reports a …") carry no
 * finding, so a rewrite may drop or add them; every other word of the source must survive.
 */
const STOP_WORDS = new Set(
  (
    'a an the and or but of to in on at for with by from as into onto over under up than then so ' +
    'is are was were be been being am has have had do does did having ' +
    'he she they it his her hers their theirs its him them this that these those there here which who whom whose what when where ' +
    'patient patients pt pts mr mrs ms miss man woman gentleman lady male female ' +
    'report reports reported reporting complain complains complained complaining complaint ' +
    'state states stated present presents presented presenting presentation describe describes described describing ' +
    'note notes noted history hx c/o also some any all very quite really just since about approximately approx around ' +
    'start starts started starting began begin begun onset aged age today currently current recently now well further episode episodes associated associate ' +
    'experience experiences experienced experiencing feel feels felt feeling having had has got gets getting ' +
    'due per via etc'
  ).split(' '),
);

/*
 * Same word, different spelling or form: British/American (haemoptysis/hemoptysis, oedema/edema,
 * tumour/tumor, centre/center, localised/localized), plurals and simple endings (radiating,
 * radiates, radiation), a few clinical abbreviations (SOB, L/R). Applied to both texts.
 */
const SAME_MEANING: readonly [RegExp, string][] = [
  [/\b(?:shortness|short) of breath\b|\bsob(?:oe)?\b|\bbreathless\w*|\bdysp?n(?:o)?ea\b/g, ' dyspnoea '],
  [/\bn\s*(?:&|and|\/)\s*v\b/g, ' nausea vomiting '],
  [/\b(?:lt|l)\b(?=\s+\w)/g, ' left '],
  [/\b(?:rt|r)\b(?=\s+\w)/g, ' right '],
  [/\babdo\b/g, ' abdominal '],
  [/\bb\/l\b|\bbilat\b/g, ' bilateral '],
  // 2/7, 3/52, 6/12: days, weeks, months (so "2/7" may read "two days", never "2 weeks")
  [/(\d+)\s*\/\s*7\b/g, ' $1 days '],
  [/(\d+)\s*\/\s*52\b/g, ' $1 weeks '],
  [/(\d+)\s*\/\s*12\b/g, ' $1 months '],
  [/(\d+)\s*(?:x|times)\b|\bx\s*(\d+)\b/g, ' $1$2 '],
];

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** One word's canonical form: spelling variants, plural and simple endings folded. */
function canonical(word: string): string {
  let w = word
    .replace(/ae/g, 'e')
    .replace(/(?<=\w)oe(?=\w)|^oe/g, 'e')
    .replace(/our(?=s?$)/, 'or')
    .replace(/(?<=[^aeiou])re$/, 'er')
    .replace(/is(?=e|ed|es|ing|ation)$/, 'iz')
    .replace(/isation$/, 'ization');
  if (NUMBER_WORDS.includes(w)) return String(NUMBER_WORDS.indexOf(w));
  if (/\d/.test(w)) return w;
  for (const [suffix, min] of [
    ['ations', 4],
    ['ation', 4],
    ['ings', 4],
    ['ing', 4],
    ['ies', 3],
    ['ed', 4],
    ['es', 4],
    ['s', 3],
  ] as const) {
    if (!w.endsWith(suffix) || w.length - suffix.length < min) continue;
    if (suffix === 's' && /(?:ss|us|is|ys)$/.test(w)) break; // haemoptysis, sepsis, virus, loss
    if (suffix === 'es' && !/(?:sh|ch|x|z|ss)es$/.test(w)) continue; // rashes; "radiates" → "s"
    w = w.slice(0, -suffix.length) + (suffix === 'ies' ? 'y' : '');
    break;
  }
  return w.replace(/e$/, ''); // radiate / radiat(ing)
}

/** The text's words, lower-cased, abbreviations expanded, diagnosis synonyms folded into one token. */
function words(text: string): string[] {
  let t = ` ${prose(text)} `;
  for (const [pattern, replacement] of SAME_MEANING) t = t.replace(pattern, replacement);
  DIAGNOSES.forEach((f, i) => (t = t.replace(f.pattern, ` ${DIAGNOSIS_TOKEN}${i} `)));
  return (t.match(/[a-z][a-z0-9']*|\d+(?:[.,]\d+)?/g) ?? []).map((w) => w.replace(/'s$/, ''));
}

/** The source's content words in canonical form: a field's "**Label:**" is not prose. */
function contentWords(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of words(text.replace(/\*\*[^*\n]+:\*\*/g, ' ')))
    if (w.length > 1 && !STOP_WORDS.has(w) && !NEGATIONS.some((f) => has(f, w)) && !/^(?:mg|ml)$/.test(w))
      if (!out.has(canonical(w))) out.set(canonical(w), w);
  return out;
}

/** The first content word of the source (its finding) that the rewrite lost, if any. */
export function lostFinding(rewrite: string, source: string): string | undefined {
  const kept = new Set(words(rewrite).map(canonical));
  for (const [c, w] of contentWords(source)) if (!kept.has(c)) return display(w);
  return undefined;
}

/*
 * Which findings a text negates, per clause (a sentence, or the part of one before or after
 * "but"). A word that negates what follows ("no", "without") governs the rest of its clause: "no
 * fever, cough or rigors" negates all three. A word that may also look back ("denies", "PE
 * excluded", "vomiting absent") governs its whole clause when read `wide`, only its part of the
 * list (between commas, "and", "with") when read narrowly. Each check reads the rewrite narrowly
 * and the source widely where that lets a faithful rewrite through, and the other way round:
 * "chest pain, denies haemoptysis" may become "chest pain; denies haemoptysis".
 */
function negated(text: string, wide: boolean): Map<string, string> {
  const out = new Map<string, string>();
  for (const clause of prose(text).split(/[.;:!?\n]|\b(?:but|however|although|though|whereas|except)\b/)) {
    const parts = [...clause.matchAll(/[^,]*?(?:,|\band\b|\bwith\b|$)/g)].filter((p) => p[0]);
    for (const f of NEGATIONS)
      for (const m of clause.matchAll(f.pattern)) {
        const at = m.index!;
        const part = parts.find((p) => p.index! <= at && at < p.index! + p[0].length);
        const scope = f.forward ? clause.slice(at + m[0].length) : wide || !part ? clause : part[0];
        for (const [c, w] of contentWords(scope)) out.set(c, w);
      }
  }
  return out;
}

/** The first finding the rewrite puts under a negation that the source does not negate. */
export function negatedFinding(rewrite: string, source: string): string | undefined {
  const allowed = negated(source, true);
  for (const [c, w] of negated(rewrite, false)) if (!allowed.has(c)) return display(w);
  return undefined;
}

/** The first finding the source negates that the rewrite no longer negates ("no haemoptysis" → "haemoptysis"). */
export function lostNegation(rewrite: string, source: string): string | undefined {
  const kept = negated(rewrite, true);
  for (const [c, w] of negated(source, false)) if (!kept.has(c)) return display(w);
  return undefined;
}

/**
 * The first rule the model's prose of a narrative section breaks, compared with the deterministic
 * prose of the same section; undefined when the rewrite may be used.
 */
export function narrativeViolation(rewrite: string, source: string): NarrativeViolation | undefined {
  const owned = contradiction(rewrite, source);
  if (owned !== undefined) return { rule: 'owned-topic', term: owned, reason: `names "${owned}", which a computed section owns` };
  const negation = addedNegation(rewrite, source);
  if (negation !== undefined)
    return {
      rule: 'negation',
      term: negation,
      reason: `adds "${negation}", a negation or reassurance the record does not state`,
    };
  const diagnosis = addedDiagnosis(rewrite, source);
  if (diagnosis !== undefined)
    return { rule: 'diagnosis', term: diagnosis, reason: `adds "${diagnosis}", a diagnosis the record does not state` };
  const inverted = negatedFinding(rewrite, source);
  if (inverted !== undefined)
    return { rule: 'negated-finding', term: inverted, reason: `negates "${inverted}", which the record does not negate` };
  const affirmed = lostNegation(rewrite, source);
  if (affirmed !== undefined)
    return { rule: 'lost-negation', term: affirmed, reason: `no longer negates "${affirmed}", which the record negates` };
  const lost = lostFinding(rewrite, source);
  if (lost !== undefined) return { rule: 'lost-finding', term: lost, reason: `drops "${lost}", a finding of the record` };
  return undefined;
}

/**
 * The deterministic summary with its narrative sections' prose replaced by the model's. Throws
 * NarrativeRejected (so the deterministic text is stored) when the model's text adds, renames or
 * drops a heading, has text outside a section, or its prose breaks a rule of `narrativeViolation`.
 */
export function mergeNarrative(modelText: string, deterministic: string): string {
  let text = modelText.replace(/\r\n?/g, '\n').trim();
  const fenced = /^```[a-z]*\n([\s\S]*?)\n```$/i.exec(text);
  if (fenced) text = fenced[1].trim();
  if (text.length > MAX_SUMMARY_CHARS) throw new NarrativeRejected('model summary too long');

  const ours = sections(deterministic);
  const theirs = sections(text);
  if (!/^#{1,6}\s/.test(text)) throw new NarrativeRejected('model summary has text before its first heading');
  const ourTitles = ours.map((p) => key(p.title));
  const extra = theirs.find((p) => !ourTitles.includes(key(p.title)));
  if (extra) throw new NarrativeRejected(`model summary adds the heading "${extra.title}"`);
  // the same headings in the same order: none dropped, repeated or moved
  if (theirs.map((p) => key(p.title)).join('\n') !== ourTitles.join('\n'))
    throw new NarrativeRejected('model summary changes the headings');

  const narrative = new Set<string>(NARRATIVE_SECTIONS.map(key));
  let rewritten = 0;
  const blocks = ours.map((own) => {
    const deterministicBlock = [`## ${own.title}`, ...own.lines].join('\n').trim();
    if (!narrative.has(key(own.title))) return deterministicBlock;
    const theirsPart = theirs.find((p) => key(p.title) === key(own.title));
    if (!theirsPart) return deterministicBlock;
    const body = theirsPart.lines
      .filter((l) => l.trim() !== DISCLAIMER)
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    if (!body) return deterministicBlock;
    const violation = narrativeViolation(body, own.lines.join('\n'));
    if (violation) throw new NarrativeRejected(`model prose in "${own.title}" ${violation.reason}`, violation);
    rewritten += 1;
    return `## ${own.title}\n${body}`;
  });
  if (rewritten === 0) throw new NarrativeRejected('model summary has no narrative section');
  // the deterministic text ends with the disclaimer, outside any heading's block: kept as it is
  const tail = deterministic.trimEnd().endsWith(DISCLAIMER) ? '' : `\n\n${DISCLAIMER}`;
  return `${blocks.join('\n\n')}${tail}\n`;
}
