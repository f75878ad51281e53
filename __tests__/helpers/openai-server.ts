import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible Chat Completions server on 127.0.0.1. It answers "refund" with two
 * tokens of log-probability -0.1 and -0.2, after `latencyMs`. Asked at a temperature above 0 it answers,
 * as a sampled model does, differently from call to call: the k-th call (retries count) with the same
 * messages gets SAMPLED_ANSWERS[(k - 1) % 3]: "refund", then "deny", then "escalate", then "refund" again.
 * Faults by the user's message: "FAIL500" always 500; "RATELIMIT" 429 (with `rateLimitHeaders`, by
 * default retry-after-ms: 0) on its first attempt; "HANG" never answers; "ECHO" a 401 whose message echoes what it was sent (the Authorization
 * header, the URL and Host) and `echo` (say, the base URL a proxy was configured with), "ECHO500" the same as a 500.
 * With `refuseLogprobs`, a request asking for log-probabilities gets a 400.
 */
export interface FakeOpenAI {
  url: string;
  requests: number;
  /** When each request arrived (performance.now(), ms). */
  arrivals: number[];
  refuseLogprobs: boolean;
  /** The headers of the 429 answer to "RATELIMIT". */
  rateLimitHeaders: Record<string, string>;
  /** Text the answers to "ECHO" quote too. */
  echo: string;
  close(): Promise<void>;
}

export const SAMPLED_ANSWERS = ['refund', 'deny', 'escalate'] as const;

export async function startFakeOpenAI(latencyMs = 0): Promise<FakeOpenAI> {
  const attempts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const state = { requests: 0, refuseLogprobs: false, rateLimitHeaders: { 'retry-after-ms': '0' } as Record<string, string>, echo: '' };
  const arrivals: number[] = [];
  const server: Server = createServer(async (request, response) => {
    arrivals.push(performance.now());
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    state.requests++;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      messages: Array<{ content: string }>;
      logprobs?: boolean;
      model: string;
      temperature?: number;
    };
    const text = body.messages.map((message) => message.content).join('\n');
    const attempt = (attempts.get(text) ?? 0) + 1;
    attempts.set(text, attempt);
    const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(data));
    };
    if (text.includes('HANG')) {
      hanging.add(response);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (state.refuseLogprobs && body.logprobs)
      return send(400, { error: { message: 'logprobs are not supported by this model', type: 'invalid_request_error' } });
    if (text.includes('FAIL500')) return send(500, { error: { message: 'internal error' } });
    if (text.includes('ECHO')) {
      const echoed = `authorization: ${request.headers.authorization}; ${request.method} ${request.url}; host ${request.headers.host}; upstream ${state.echo}`;
      return send(text.includes('ECHO500') ? 500 : 401, { error: { message: `invalid request (${echoed})`, headers: request.headers } });
    }
    if (text.includes('RATELIMIT') && attempt === 1) return send(429, { error: { message: 'rate limited' } }, state.rateLimitHeaders);
    send(200, {
      id: `chatcmpl-${state.requests}`,
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: body.temperature ? SAMPLED_ANSWERS[(attempt - 1) % SAMPLED_ANSWERS.length] : 'refund' },
          logprobs: body.logprobs
            ? {
                content: [
                  { token: 'ref', logprob: -0.1, bytes: null, top_logprobs: [] },
                  { token: 'und', logprob: -0.2, bytes: null, top_logprobs: [] },
                ],
              }
            : null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 40, completion_tokens: 2, total_tokens: 42 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    arrivals,
    get refuseLogprobs() {
      return state.refuseLogprobs;
    },
    set refuseLogprobs(value: boolean) {
      state.refuseLogprobs = value;
    },
    get rateLimitHeaders() {
      return state.rateLimitHeaders;
    },
    set rateLimitHeaders(value: Record<string, string>) {
      state.rateLimitHeaders = value;
    },
    get echo() {
      return state.echo;
    },
    set echo(value: string) {
      state.echo = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Runs `use` against a fresh server, closed afterwards whatever happens. */
export async function withFakeOpenAI<T>(latencyMs: number, use: (server: FakeOpenAI) => Promise<T>): Promise<T> {
  const server = await startFakeOpenAI(latencyMs);
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}
