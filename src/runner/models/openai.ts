import type { APIError as ClientAPIError } from 'openai';
import { UsageError } from '../../errors.js';
import { keepAliveFetch, UnreadableAnswerError } from './http-fetch.js';
import { connectionSecrets, redactor } from './redact.js';
import { AdapterError, type Completion, type CompletionRequest, type ModelAdapter } from './types.js';

/**
 * `openai:MODEL`: any OpenAI-compatible Chat Completions endpoint (OpenAI, vLLM, Ollama, TGI,
 * llama.cpp) through the official client. The base URL comes from --base-url or OPENAI_BASE_URL, the
 * key from OPENAI_API_KEY, as the client reads them; the base URL is checked before any call.
 * Log-probabilities are asked for; `confidence` is then exp(sum of the answer's token logprobs)
 * (HELM's max_prob). An endpoint that refuses them is asked without. Retries are evalgate's own (the
 * client's are off), so every attempt is counted.
 */
export async function openaiAdapter(
  model: string,
  baseURL?: string,
  revision?: string,
  keyVariable = 'OPENAI_API_KEY',
): Promise<ModelAdapter> {
  const { default: OpenAI, APIError } = await import('openai');
  const transport = await keepAliveFetch();
  const apiKey = process.env[keyVariable] || undefined; // set but empty: no key
  const options = { apiKey: apiKey ?? 'not-needed', maxRetries: 0, logLevel: 'off' as const, fetch: transport.fetch };
  const client = new OpenAI({ ...options, baseURL });
  const secrets = connectionSecrets(apiKey, client.baseURL);
  checkBaseUrl(client.baseURL, baseURL === undefined ? 'OPENAI_BASE_URL' : 'the base URL', secrets);
  /** On a 404, once: whether the endpoint answers with or without /v1 instead. */
  let pathHint: Promise<string> | undefined;
  const hintFor = () =>
    (pathHint ??= otherBaseUrlHint(client.baseURL, (url) =>
      new OpenAI({ ...options, baseURL: url }).models.list({ timeout: HINT_TIMEOUT_MS }).then(() => true),
    ));
  let logprobs = true;
  /** Whether to ask for the request's response format: until the endpoint refuses it. */
  let structured = true;
  return {
    id: `openai:${client.baseURL}:${model}`,
    model,
    revision,
    secrets,
    async complete(request, signal) {
      for (;;) {
        let response: unknown;
        try {
          response = await client.chat.completions.create(
            {
              model,
              messages: request.messages,
              max_tokens: request.settings.max_tokens,
              temperature: request.settings.temperature,
              top_p: request.settings.top_p,
              stop: request.settings.stop,
              seed: request.settings.seed,
              ...(logprobs ? { logprobs: true } : {}),
              ...(structured && request.responseFormat ? { response_format: jsonSchemaFormat(request.responseFormat) } : {}),
            },
            { signal },
          );
        } catch (error) {
          if (error instanceof APIError && error.status === 400 && logprobs && /logprob/i.test(error.message)) {
            logprobs = false; // this endpoint does not offer them: ask again without
            continue;
          }
          if (error instanceof APIError && error.status === 400 && structured && request.responseFormat && STRUCTURED.test(error.message)) {
            structured = false; // nor a JSON schema: the reply is read from text (the judge's strict parser)
            continue;
          }
          if (signal.aborted) throw new AdapterError('timed out', true);
          if (error instanceof APIError && error.status === 404) {
            throw new AdapterError(`HTTP 404: ${error.message}${await hintFor()}`, false, { endpoint: true });
          }
          throw transportFailure(error, APIError);
        }
        return completionOf(response);
      }
    },
    async close() {
      await transport.close();
    },
  };
}

/** What an endpoint that does not take a response format says about it. */
const STRUCTURED = /response_format|json_schema|structured|schema/i;

const jsonSchemaFormat = ({ name, schema }: NonNullable<CompletionRequest['responseFormat']>) =>
  ({ type: 'json_schema', json_schema: { name, schema, strict: true } }) as const;

/** A base URL a call can go to: http or https, with a host. Refused before any call, its password redacted. */
function checkBaseUrl(text: string, source: string, secrets: string[]): void {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '') return;
  const example = text.includes('://') ? 'http://localhost:8000/v1' : `http://${text}`;
  // Without a scheme, a user:password@ is found once one is put before it.
  const redact = redactor([...secrets, ...connectionSecrets(undefined, example)]);
  throw new UsageError(redact(`${source} "${text}" is not an http:// or https:// URL with a host: give it in full, such as "${example}"`));
}

/** How long the model lists asked for the hint on a 404 may take. */
const HINT_TIMEOUT_MS = 5000;

/**
 * " (the endpoint answers at URL: use that base URL)" when the base URL with /v1 added (or taken
 * away) lists models where the base URL as given does not; else "".
 */
async function otherBaseUrlHint(base: string, listsModels: (url: string) => Promise<boolean>): Promise<string> {
  const trimmed = base.replace(/\/+$/, '');
  const other = trimmed.endsWith('/v1') ? trimmed.slice(0, -'/v1'.length) : `${trimmed}/v1`;
  const answers = (url: string) => listsModels(url).catch(() => false);
  const [here, there] = await Promise.all([answers(trimmed), answers(other)]);
  return !here && there ? ` (the endpoint answers at ${other}: use that base URL)` : '';
}

/** HTTP statuses after which no call can succeed: a wrong key, no access, a wrong path or model. */
const ENDPOINT_STATUSES = new Set([401, 403, 404]);
/** Connection failures that mean the endpoint is not there: refused, an unknown host, no route. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A failed call as an AdapterError: an HTTP status, or the connection (the client wraps what the
 * transport threw as the error's cause). Anything else the client threw is a bug, thrown as it is.
 */
function transportFailure(error: unknown, APIError: typeof ClientAPIError): unknown {
  if (!(error instanceof APIError)) return error;
  if (error.status !== undefined) {
    const retryable = error.status === 429 || error.status >= 500 || error.status === 408;
    const retryAfter = error.headers ? retryAfterMs(error.headers) : undefined;
    return new AdapterError(`HTTP ${error.status}: ${error.message}`, retryable, {
      retryAfterMs: retryAfter,
      endpoint: ENDPOINT_STATUSES.has(error.status),
    });
  }
  const cause: unknown = error.cause;
  if (cause instanceof UnreadableAnswerError) return new AdapterError(cause.message, false);
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  // Network errors: retried (a restarting server), but on the first call an unreachable endpoint stops the run.
  return new AdapterError(`connection failed${detail || ` (${error.message})`}`, true, { endpoint: UNREACHABLE.has(code ?? '') });
}

type Fields = Record<string, unknown>;
const fields = (value: unknown): Fields | undefined => (typeof value === 'object' && value !== null ? (value as Fields) : undefined);
const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined);
const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The completion in an endpoint's answer. An answer that is not a chat completion (no `choices` list,
 * an answer's text or a token's log-probability of the wrong type) fails the call, not retried; on the
 * run's first call it is the wrong endpoint (a web page, another API), and the run stops. (Checked by
 * hand: a schema library's parse cost a tenth of the run's CPU at high concurrency.)
 */
function completionOf(response: unknown): Completion {
  const answer = fields(response);
  const notACompletion = (what: string) =>
    new AdapterError(`the endpoint's answer is not a chat completion (${what})`, false, { endpoint: true });
  if (!Array.isArray(answer?.choices)) throw notACompletion('no "choices" list');
  const choice = fields(answer.choices[0]);
  const content = fields(choice?.message)?.content ?? undefined;
  if (content !== undefined && content !== null && typeof content !== 'string') throw notACompletion('"message.content" is not text');
  const tokens = fields(choice?.logprobs)?.content;
  const logprobs = Array.isArray(tokens) ? tokens.map((token) => fields(token)?.logprob) : [];
  if (!logprobs.every((logprob) => typeof logprob === 'number')) throw notACompletion('a "logprob" is not a number');
  const usage = fields(answer.usage);
  return {
    text: content ?? '',
    inputTokens: numberOf(usage?.prompt_tokens),
    outputTokens: numberOf(usage?.completion_tokens),
    confidence: logprobs.length > 0 ? Math.exp((logprobs as number[]).reduce((sum, logprob) => sum + logprob, 0)) : undefined,
    servedModel: textOf(answer.model),
    systemFingerprint: textOf(answer.system_fingerprint),
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
