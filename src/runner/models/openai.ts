import { keepAliveFetch } from './http-fetch.js';
import { connectionSecrets } from './redact.js';
import { AdapterError, type ModelAdapter } from './types.js';

/**
 * `openai:MODEL`: any OpenAI-compatible Chat Completions endpoint (OpenAI, vLLM, Ollama, TGI,
 * llama.cpp) through the official client. The base URL comes from --base-url or OPENAI_BASE_URL, the
 * key from OPENAI_API_KEY, as the client reads them. Log-probabilities are asked for; `confidence` is
 * then exp(sum of the answer's token logprobs) (HELM's max_prob). An endpoint that refuses them is
 * asked without. Retries are evalgate's own (the client's are off), so every attempt is counted.
 */
export async function openaiAdapter(model: string, baseURL?: string): Promise<ModelAdapter> {
  const { default: OpenAI, APIError } = await import('openai');
  const transport = keepAliveFetch();
  const apiKey = process.env.OPENAI_API_KEY;
  const client = new OpenAI({
    apiKey: apiKey ?? 'not-needed',
    baseURL,
    maxRetries: 0,
    logLevel: 'off',
    fetch: transport.fetch,
  });
  let logprobs = true;
  return {
    id: `openai:${client.baseURL}:${model}`,
    model,
    secrets: connectionSecrets(apiKey, client.baseURL),
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
            throw new AdapterError(
              `HTTP ${error.status}: ${error.message}`,
              retryable,
              error.headers ? retryAfterMs(error.headers) : undefined,
            );
          }
          throw new AdapterError((error as Error).message, true); // network errors
        }
      }
    },
    async close() {
      transport.close();
    },
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
