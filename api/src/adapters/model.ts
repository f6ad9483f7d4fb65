import { NARRATIVE_PROMPT, narrativeOutcome, type NarrativeOutcome } from '../clinical';

/*
 * Optional rewrite of a summary's narrative by a language model (an OpenAI-compatible
 * chat-completions endpoint): the HTTP call only. What the model is asked and what of its answer
 * may be used — only the prose of the narrative sections, nothing a computed section owns — is the
 * pure clinical layer's (src/clinical/narrative-guard.ts: NARRATIVE_PROMPT, narrativeOutcome); its
 * whole answer is dropped (deterministic text kept) when the guard refuses it or the call fails.
 */

export interface LlmConfig {
  url: string;
  model: string;
  key?: string;
  timeoutMs: number;
}

export type FetchFn = typeof globalThis.fetch;

const MAX_ANSWER_CHARS = 200_000;

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
        { role: 'system', content: NARRATIVE_PROMPT },
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

/** The summary to store: the model's rewrite merged with the computed sections, or the deterministic text. */
export async function narrativeSummary(
  deterministic: string,
  llm: LlmConfig | undefined,
  fetchFn: FetchFn,
): Promise<NarrativeOutcome> {
  if (!llm) return { summary: deterministic, source: 'deterministic' };
  const answer = await requestRewrite(deterministic, llm, fetchFn).then(
    (text) => ({ text, model: llm.model }),
    (error: unknown) => ({ error }),
  );
  return narrativeOutcome(deterministic, answer);
}
