import { mergeNarrative } from '../clinical';

/*
 * Optional rewrite of a summary's narrative by a language model (an OpenAI-compatible
 * chat-completions endpoint): the HTTP call only. What the model may say — only the prose of the
 * narrative sections, nothing a computed section owns — is decided by the pure guard
 * (`mergeNarrative` in src/clinical/narrative-guard.ts); its whole answer is dropped (deterministic
 * text kept) when the guard refuses it or the call fails.
 */

export interface LlmConfig {
  url: string;
  model: string;
  key?: string;
  timeoutMs: number;
}

export type FetchFn = typeof globalThis.fetch;

const MAX_ANSWER_CHARS = 200_000;

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

/** The summary to store: the model's rewrite merged with the computed sections, or the deterministic text. */
export async function narrativeSummary(
  deterministic: string,
  llm: LlmConfig | undefined,
  fetchFn: FetchFn,
): Promise<NarrativeOutcome> {
  if (!llm) return { summary: deterministic, source: 'deterministic' };
  try {
    const content = await requestRewrite(deterministic, llm, fetchFn);
    return { summary: mergeNarrative(content, deterministic), source: 'model', rewrittenBy: { model: llm.model } };
  } catch (error) {
    return { summary: deterministic, source: 'deterministic', error };
  }
}
