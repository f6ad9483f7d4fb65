import { DISCLAIMER } from '../clinical';

/*
 * Optional rewrite of a summary's narrative by a language model (an OpenAI-compatible
 * chat-completions endpoint). The model only ever rewrites the prose of the NARRATIVE sections
 * (presenting complaint, key history). Everything else — patient, allergies, vital signs with
 * NEWS2, investigations, treatment, alerts — is computed and copied VERBATIM from the
 * deterministic summary. The model's whole answer is dropped (deterministic text kept) when it adds
 * a heading, or when its prose says anything a computed section owns (allergies, NEWS2, alerts,
 * discharge, vital signs, numbers) that the deterministic text of that section did not say.
 */

export interface LlmConfig {
  url: string;
  model: string;
  key?: string;
  timeoutMs: number;
}

export type FetchFn = typeof globalThis.fetch;

/** The only sections whose prose the model may rewrite. */
export const NARRATIVE_SECTIONS = ['Presenting complaint', 'Key history'] as const;

const MAX_ANSWER_CHARS = 200_000;
const MAX_SUMMARY_CHARS = 50_000;

export const SYSTEM_PROMPT = [
  'You are a clinical documentation assistant. You receive the structured summary of one medical record in a restricted Markdown.',
  'Rewrite the narrative sections in clear, concise clinical prose for a doctor. Use only the facts in the text: add nothing, infer no diagnosis, drop no finding.',
  'Formatting: only "## " headings and **bold**; no other Markdown (no lists, tables, links or code).',
  'Rewrite only the sections "## Presenting complaint" and "## Key history"; copy every other section unchanged.',
  'Keep every "## " heading of the input, with the same wording and in the same order, and add no heading.',
  'Do not mention allergies, scores, alerts, vital signs, medication or discharge in the rewritten sections.',
  'Answer with the rewritten summary only.',
].join('\n');

export class NarrativeError extends Error {}

/** Asks the model for the rewrite; throws NarrativeError (or the fetch error) on any failure. */
export async function requestRewrite(markdown: string, llm: LlmConfig, fetchFn: FetchFn): Promise<string> {
  const res = await fetchFn(llm.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(llm.key ? { authorization: `Bearer ${llm.key}` } : {}),
    },
    body: JSON.stringify({
      model: llm.model,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: markdown },
      ],
      temperature: 0,
    }),
    redirect: 'error',
    // Covers the connection, the headers and the body.
    signal: AbortSignal.timeout(llm.timeoutMs),
  });
  const text = await res.text();
  if (!res.ok) throw new NarrativeError(`model endpoint answered ${res.status}`);
  if (text.length > MAX_ANSWER_CHARS) throw new NarrativeError('model answer too large');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new NarrativeError('model answer is not JSON');
  }
  const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new NarrativeError('model answer has no content');
  return content;
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

/**
 * The deterministic summary with its narrative sections' prose replaced by the model's. Throws
 * NarrativeError (so the deterministic text is stored) when the model's text adds, renames or
 * drops a heading, has text outside a section, or contradicts a computed section.
 */
export function mergeNarrative(modelText: string, deterministic: string): string {
  let text = modelText.replace(/\r\n?/g, '\n').trim();
  const fenced = /^```[a-z]*\n([\s\S]*?)\n```$/i.exec(text);
  if (fenced) text = fenced[1].trim();
  if (text.length > MAX_SUMMARY_CHARS) throw new NarrativeError('model summary too long');

  const ours = sections(deterministic);
  const theirs = sections(text);
  if (!/^#{1,6}\s/.test(text)) throw new NarrativeError('model summary has text before its first heading');
  const ourTitles = ours.map((p) => key(p.title));
  const extra = theirs.find((p) => !ourTitles.includes(key(p.title)));
  if (extra) throw new NarrativeError(`model summary adds the heading "${extra.title}"`);
  // the same headings in the same order: none dropped, repeated or moved
  if (theirs.map((p) => key(p.title)).join('\n') !== ourTitles.join('\n'))
    throw new NarrativeError('model summary changes the headings');

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
      throw new NarrativeError(`model prose in "${own.title}" names "${owned}", which a computed section owns`);
    rewritten += 1;
    return `## ${own.title}\n${body}`;
  });
  if (rewritten === 0) throw new NarrativeError('model summary has no narrative section');
  // the deterministic text ends with the disclaimer, outside any heading's block: kept as it is
  const tail = deterministic.trimEnd().endsWith(DISCLAIMER) ? '' : `\n\n${DISCLAIMER}`;
  return `${blocks.join('\n\n')}${tail}\n`;
}

export interface NarrativeOutcome {
  summary: string;
  /** 'model' when the rewrite was used; otherwise why the deterministic text was kept */
  source: 'model' | 'deterministic';
  error?: unknown;
}

/** The summary to store: the model's rewrite merged with the computed sections, or the deterministic text. */
export async function narrativeSummary(
  deterministic: string,
  llm: LlmConfig | undefined,
  fetchFn: FetchFn,
): Promise<NarrativeOutcome> {
  if (!llm) return { summary: deterministic, source: 'deterministic' };
  try {
    const content = await requestRewrite(deterministic, llm, fetchFn);
    return { summary: mergeNarrative(content, deterministic), source: 'model' };
  } catch (error) {
    return { summary: deterministic, source: 'deterministic', error };
  }
}
