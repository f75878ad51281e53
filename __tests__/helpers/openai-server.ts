import { afterAll, beforeAll } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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
 * As a real endpoint does, it answers only POST /v1/chat/completions and GET /v1/models (other paths: 404);
 * with `apiKey` set, a request without that key gets a 401. Its answers name the model it serves
 * (`served`, by default the name asked for) and carry `fingerprint` as their system_fingerprint.
 * "MALFORMED" gets a 200 whose choices are null; "HUGE" a 200 whose body streams on for `hugeBytes`.
 */
export interface FakeOpenAI {
  url: string;
  requests: number;
  /** The requests whose messages held each text, e.g. countOf('HUGE'). */
  countOf(text: string): number;
  /** The model the answers name (the response's `model`); undefined: the name asked for. */
  served: string | undefined;
  fingerprint: string;
  /** The key a request must carry (Authorization: Bearer KEY); undefined: any. */
  apiKey: string | undefined;
  /** How many bytes the answer to "HUGE" streams. */
  hugeBytes: number;
  /** How many bytes of the answers to "HUGE" the server wrote before the client went away. */
  hugeWritten: number;
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
  const state = {
    requests: 0,
    refuseLogprobs: false,
    rateLimitHeaders: { 'retry-after-ms': '0' } as Record<string, string>,
    echo: '',
    served: undefined as string | undefined,
    fingerprint: 'fp_1',
    apiKey: undefined as string | undefined,
    hugeBytes: 1024 ** 3,
    hugeWritten: 0,
  };
  const arrivals: number[] = [];
  const texts: string[] = [];
  const server: Server = createServer(async (request, response) => {
    arrivals.push(performance.now());
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    state.requests++;
    const refusal = refused(request, state.apiKey);
    if (refusal) {
      response.writeHead(refusal.status, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ error: { message: refusal.message } }));
    }
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(
        JSON.stringify({ object: 'list', data: [{ id: state.served ?? 'm', object: 'model', created: 0, owned_by: 'me' }] }),
      );
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      messages: Array<{ content: string }>;
      logprobs?: boolean;
      model: string;
      temperature?: number;
    };
    const text = body.messages.map((message) => message.content).join('\n');
    texts.push(text);
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
    if (text.includes('MALFORMED')) return send(200, { id: 'chatcmpl-x', object: 'chat.completion', model: body.model, choices: null });
    if (text.includes('HUGE')) return streamHuge(response, state.hugeBytes, (bytes) => (state.hugeWritten += bytes));
    send(200, {
      id: `chatcmpl-${state.requests}`,
      object: 'chat.completion',
      created: 0,
      model: state.served ?? body.model,
      system_fingerprint: state.fingerprint,
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
  const fake = {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    arrivals,
    countOf: (text: string) => texts.filter((each) => each.includes(text)).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.close(() => resolve());
      }),
  };
  const settings = ['refuseLogprobs', 'rateLimitHeaders', 'echo', 'served', 'fingerprint', 'apiKey', 'hugeBytes', 'hugeWritten'] as const;
  return withAccessors(fake, state, [...settings]);
}

/** `object` with a getter and a setter of each of the server's settings `names`. */
function withAccessors<Fake extends object, State extends object, Name extends keyof State>(
  object: Fake,
  state: State,
  names: Name[],
): Fake & Pick<State, Name> {
  for (const name of names) {
    Object.defineProperty(object, name, { get: () => state[name], set: (value: State[Name]) => (state[name] = value), enumerable: true });
  }
  return object as Fake & Pick<State, Name>;
}

/** Why a request is refused as a real endpoint would: a path it does not serve (404), a missing or wrong key (401). */
function refused(request: IncomingMessage, apiKey: string | undefined): { status: number; message: string } | undefined {
  const route = `${request.method} ${request.url}`;
  if (route !== 'POST /v1/chat/completions' && route !== 'GET /v1/models') return { status: 404, message: `no route for ${route}` };
  if (apiKey !== undefined && request.headers.authorization !== `Bearer ${apiKey}`) {
    return { status: 401, message: 'Incorrect API key provided' };
  }
  return undefined;
}

/** A 200 whose JSON body never ends: `bytes` of one string, written as fast as the client reads, until it goes away. */
function streamHuge(response: ServerResponse, bytes: number, wrote: (bytes: number) => void): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes) });
  const head = Buffer.from('{"id":"x","object":"chat.completion","choices":[{"message":{"content":"');
  const chunk = Buffer.alloc(1 << 20, 'a');
  let left = bytes;
  const pump = () => {
    while (left > 0 && !response.destroyed) {
      const piece = left === bytes ? head : chunk.subarray(0, Math.min(chunk.length, left));
      left -= piece.length;
      wrote(piece.length);
      if (!response.write(piece)) return void response.once('drain', pump);
    }
    response.end();
  };
  response.on('error', () => undefined); // the client cut the connection
  pump();
}

/** An endpoint URL where nothing listens (a port taken and let go). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
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

/**
 * A server for the tests of one file that run the action in-process, handed to `use`: the OpenAI adapter
 * (src/runner) reads its key from this process's environment, as the CLI's does, so OPENAI_API_KEY is set
 * before them and restored after.
 */
export function useFakeOpenAI(use: (server: FakeOpenAI) => void): void {
  let server: FakeOpenAI;
  const key = process.env.OPENAI_API_KEY;
  beforeAll(async () => {
    server = await startFakeOpenAI();
    use(server);
    process.env.OPENAI_API_KEY = 'sk-test';
  });
  afterAll(async () => {
    await server.close();
    if (key === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = key;
  });
}
