import { DISCLAIMER } from '../clinical';

/*
 * Optional rewrite of a summary's narrative by a language model (an OpenAI-compatible
 * chat-completions endpoint). The model only ever improves the prose: the computed sections
 * ("## Vital signs" with NEWS2 and the flags, "## Alerts") are put back VERBATIM from the
 * deterministic summary, and the deterministic summary is used whenever anything goes wrong.
 */

export interface LlmConfig {
  url: string;
  model: string;
  key?: string;
  timeoutMs: number;
}

export type FetchFn = typeof globalThis.fetch;

/** The sections the model may not change. */
export const COMPUTED_SECTIONS = ['Vital signs', 'Alerts'] as const;

const MAX_ANSWER_CHARS = 200_000;
const MAX_SUMMARY_CHARS = 50_000;

export const SYSTEM_PROMPT = [
  'You are a clinical documentation assistant. You receive the structured summary of one medical record in a restricted Markdown.',
  'Rewrite the narrative sections in clear, concise clinical prose for a doctor. Use only the facts in the text: add nothing, infer no diagnosis, drop no finding.',
  'Formatting: only "## " headings and **bold**; no other Markdown (no lists, tables, links or code).',
  'Keep every "## " heading of the input, with the same wording and in the same order.',
  'Copy the sections "## Vital signs" and "## Alerts" unchanged.',
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

/** The deterministic block of a computed section: its heading line up to the next blank line. */
function computedBlock(deterministic: string, title: string): string {
  const block = deterministic.split('\n\n').find((b) => b.startsWith(`## ${title}\n`) || b === `## ${title}`);
  if (!block) throw new Error(`deterministic summary has no "## ${title}" section`);
  return block;
}

/**
 * The model's text with the computed sections replaced by the deterministic ones. Throws
 * NarrativeError when the model's text lacks one of them or is otherwise unusable. Lines of the
 * narrative that mention NEWS2 are dropped: the score is stated only by the computed section.
 */
export function mergeNarrative(modelText: string, deterministic: string): string {
  let text = modelText.replace(/\r\n?/g, '\n').trim();
  const fenced = /^```[a-z]*\n([\s\S]*?)\n```$/i.exec(text);
  if (fenced) text = fenced[1].trim();
  if (text.length > MAX_SUMMARY_CHARS) throw new NarrativeError('model summary too long');

  const parts = sections(text);
  const wanted = new Map<string, string>(COMPUTED_SECTIONS.map((t) => [key(t), computedBlock(deterministic, t)]));
  for (const k of wanted.keys()) {
    if (!parts.some((p) => key(p.title) === k)) throw new NarrativeError(`model summary lacks the "${k}" section`);
  }
  const narrativeCount = parts.filter((p) => !wanted.has(key(p.title))).length;
  if (narrativeCount === 0) throw new NarrativeError('model summary has no narrative section');

  const used = new Set<string>();
  const blocks: string[] = [];
  for (const part of parts) {
    const k = key(part.title);
    const computed = wanted.get(k);
    if (computed !== undefined) {
      if (!used.has(k)) blocks.push(computed);
      used.add(k);
      continue;
    }
    const title = part.title.replace(/\s+/g, ' ');
    if (!title) continue;
    const body = part.lines
      .filter((l) => !/NEWS\s*-?\s*2/i.test(l) && l.trim() !== DISCLAIMER)
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    blocks.push(body ? `## ${title}\n${body}` : `## ${title}`);
  }
  return `${blocks.join('\n\n')}\n\n${DISCLAIMER}\n`;
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
