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

const MAX_SUMMARY_CHARS = 50_000;

/** The model's answer may not be used; the message says why. */
export class NarrativeRejected extends Error {}

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

/**
 * The deterministic summary with its narrative sections' prose replaced by the model's. Throws
 * NarrativeRejected (so the deterministic text is stored) when the model's text adds, renames or
 * drops a heading, has text outside a section, or contradicts a computed section.
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
    const owned = contradiction(body, own.lines.join('\n'));
    if (owned !== undefined)
      throw new NarrativeRejected(`model prose in "${own.title}" names "${owned}", which a computed section owns`);
    rewritten += 1;
    return `## ${own.title}\n${body}`;
  });
  if (rewritten === 0) throw new NarrativeRejected('model summary has no narrative section');
  // the deterministic text ends with the disclaimer, outside any heading's block: kept as it is
  const tail = deterministic.trimEnd().endsWith(DISCLAIMER) ? '' : `\n\n${DISCLAIMER}`;
  return `${blocks.join('\n\n')}${tail}\n`;
}
