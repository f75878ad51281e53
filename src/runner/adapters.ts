import { UsageError } from '../records/errors.js';
import { readRecords } from '../records/read.js';
import { keepAliveFetch } from './http-fetch.js';
import { JsonLinesProcess } from './json-lines-process.js';
import type { ChatMessage, GenerationSettings } from './suite.js';

/** What a model is asked: the conversation, the settings, and which example it is (for replay). */
export interface CompletionRequest {
  scenario: string;
  id: string;
  perturbation?: string;
  messages: ChatMessage[];
  settings: GenerationSettings;
}

export interface Completion {
  text: string;
  inputTokens?: number;
  outputTokens?: number;
  /** The model's probability for its answer (HELM's max_prob), when it reports one. */
  confidence?: number;
  /** How long the call took when it was made (kept in the completion cache, and by replay). */
  latencyMs?: number;
  /** What the call cost when it was made (kept by replay). */
  costUsd?: number;
}

/** A failed call; `retryable` for rate limits, server errors, time-outs and dropped connections. */
export class AdapterError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'AdapterError';
  }
}

export interface ModelAdapter {
  /** Identifies adapter and model in the completion cache, e.g. "command:python3 model.py". */
  id: string;
  /** The model's name, for prices. */
  model: string;
  /**
   * Answers come from stored records (replay), not a model: each keeps the latency and cost stored
   * with it, and none is cached (the cache is keyed by messages, so it would give instances with the
   * same prompt one answer, and hide edits to the stored file).
   */
  stored?: boolean;
  complete(request: CompletionRequest, signal: AbortSignal): Promise<Completion>;
  close(): Promise<void>;
}

/** `replay:RECORDS.jsonl`: the completions stored in an earlier records file, scored again. */
export async function replayAdapter(file: string): Promise<ModelAdapter> {
  const stored = new Map<string, { prediction?: string; error?: string; record: Record<string, unknown> }>();
  for (const record of await readRecords(file)) {
    stored.set(`${record.scenario}\u0000${record.id}\u0000${record.perturbation?.name ?? ''}`, { prediction: record.prediction, error: record.error, record });
  }
  return {
    id: `replay:${file}`,
    model: file,
    stored: true,
    async complete(request) {
      const found = stored.get(`${request.scenario}\u0000${request.id}\u0000${request.perturbation ?? ''}`);
      if (!found) throw new AdapterError(`no completion stored in ${file} for ${request.scenario}/${request.id}${request.perturbation ? ` (${request.perturbation})` : ''}`, false);
      if (found.prediction === undefined) throw new AdapterError(found.error ?? `the stored record has no prediction`, false);
      const number = (name: string) => (typeof found.record[name] === 'number' ? (found.record[name] as number) : undefined);
      return {
        text: found.prediction,
        inputTokens: number('input_tokens'),
        outputTokens: number('output_tokens'),
        confidence: number('confidence'),
        latencyMs: number('latency_ms'),
        costUsd: number('cost_usd'),
      };
    },
    async close() {},
  };
}

/**
 * `command:"CMD ARGS"`: one long-running program that reads a JSON request per line on stdin and
 * writes a JSON response per line on stdout, matched by `id`:
 *   request  {"id": "17", "messages": [{"role": "user", "content": "..."}], "settings": {...}}
 *   response {"id": "17", "text": "...", "input_tokens": 12, "output_tokens": 3, "confidence": 0.9}
 *        or  {"id": "17", "error": "...", "retryable": true}
 * Responses may come in any order; the program's stderr goes to evalgate's stderr.
 */
export function commandAdapter(command: string): ModelAdapter {
  const program = new JsonLinesProcess(command, 'the model command');
  const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
  return {
    id: `command:${command}`,
    model: command,
    async complete(request, signal) {
      let response: Record<string, unknown>;
      try {
        response = await program.request({ messages: request.messages, settings: request.settings }, signal);
      } catch (error) {
        // A time-out may be retried; a program that died may not.
        throw new AdapterError((error as Error).message, signal.aborted);
      }
      if (typeof response.error === 'string') throw new AdapterError(response.error, response.retryable === true);
      if (typeof response.text !== 'string') throw new AdapterError('the model command answered without "text"', false);
      return { text: response.text, inputTokens: number(response.input_tokens), outputTokens: number(response.output_tokens), confidence: number(response.confidence) };
    },
    close: () => program.close(),
  };
}

/**
 * `openai:MODEL`: any OpenAI-compatible Chat Completions endpoint (OpenAI, vLLM, Ollama, TGI,
 * llama.cpp) through the official client. The base URL comes from --base-url or OPENAI_BASE_URL, the
 * key from OPENAI_API_KEY, as the client reads them. Log-probabilities are asked for; `confidence` is
 * then exp(sum of the answer's token logprobs) (HELM's max_prob). An endpoint that refuses them is
 * asked without. Retries are evalgate's own (the client's are off), so every attempt is counted.
 */
export async function openaiAdapter(model: string, baseURL?: string): Promise<ModelAdapter> {
  const { default: OpenAI, APIError } = await import('openai');
  const client = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'not-needed', baseURL, maxRetries: 0, logLevel: 'off', fetch: keepAliveFetch });
  let logprobs = true;
  return {
    id: `openai:${client.baseURL}:${model}`,
    model,
    async complete(request, signal) {
      for (;;) {
        try {
          const response = await client.chat.completions.create(
            {
              model,
              messages: request.messages,
              max_tokens: request.settings.max_tokens,
              temperature: request.settings.temperature,
              top_p: request.settings.top_p,
              stop: request.settings.stop,
              ...(logprobs ? { logprobs: true } : {}),
            },
            { signal },
          );
          const choice = response.choices[0];
          const tokens = choice?.logprobs?.content;
          return {
            text: choice?.message?.content ?? '',
            inputTokens: response.usage?.prompt_tokens,
            outputTokens: response.usage?.completion_tokens,
            confidence: tokens && tokens.length > 0 ? Math.exp(tokens.reduce((sum, token) => sum + token.logprob, 0)) : undefined,
          };
        } catch (error) {
          if (error instanceof APIError && error.status === 400 && logprobs && /logprob/i.test(error.message)) {
            logprobs = false; // this endpoint does not offer them: ask again without
            continue;
          }
          if (signal.aborted) throw new AdapterError('timed out', true);
          if (error instanceof APIError && error.status !== undefined) {
            const retryable = error.status === 429 || error.status >= 500 || error.status === 408;
            throw new AdapterError(`HTTP ${error.status}: ${error.message}`, retryable, error.headers ? retryAfterMs(error.headers) : undefined);
          }
          throw new AdapterError((error as Error).message, true); // network errors
        }
      }
    },
    async close() {},
  };
}

/** How long a server asks to wait before the next attempt: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date. */
function retryAfterMs(headers: Headers): number | undefined {
  const milliseconds = headers.get('retry-after-ms')?.trim();
  if (milliseconds && Number.isFinite(Number(milliseconds))) return Math.max(0, Number(milliseconds));
  const after = headers.get('retry-after')?.trim();
  if (!after) return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The adapter of a --model spec: openai:MODEL, command:"CMD ARGS" or replay:RECORDS.jsonl. */
export async function adapterFromSpec(spec: string, baseUrl?: string): Promise<ModelAdapter> {
  const split = spec.indexOf(':');
  const kind = spec.slice(0, split);
  const rest = spec.slice(split + 1).trim();
  if (split > 0 && rest && kind === 'openai') return openaiAdapter(rest, baseUrl);
  if (split > 0 && rest && kind === 'command') return commandAdapter(rest.replace(/^"(.*)"$/, '$1'));
  if (split > 0 && rest && kind === 'replay') return replayAdapter(rest);
  throw new UsageError(`--model expects openai:MODEL, command:"CMD ARGS" or replay:RECORDS.jsonl, got "${spec}"`);
}
