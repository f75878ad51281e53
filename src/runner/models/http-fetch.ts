import type { Dispatcher } from 'undici';
import { describeBytes, MAX_RESPONSE_BYTES } from '../../limits.js';

/*
 * The openai client's fetch: undici's keep-alive connection pools, and every answer read to at most
 * MAX_RESPONSE_BYTES (undici cuts the connection there), so that an endpoint streaming a gigabyte
 * costs 16 MiB. Through undici's request API rather than its fetch: the fetch algorithm and a web
 * stream for every body cost about twice the CPU per request, which is what bounds a run at high
 * concurrency against a fast endpoint (docs/benchmarks.md).
 */

/** A fetch with connection pools of its own; `close` ends their connections. */
export interface KeepAliveFetch {
  fetch: typeof fetch;
  close(): Promise<void>;
}

/** An answer evalgate does not read: larger than the bound, compressed though it asked for none, or not JSON. */
export class UnreadableAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableAnswerError';
  }
}

/** The transport; undici is loaded here, when a model endpoint is asked, not by every command (a tenth of a second). */
export async function keepAliveFetch(maxResponseBytes = MAX_RESPONSE_BYTES): Promise<KeepAliveFetch> {
  // undici is CommonJS: its exports are the module's default export both in Node and in the bundle's
  // chunk (esbuild gives a CommonJS module split into a chunk no named exports).
  const { Agent, errors, request } = (await import('undici')).default;
  const ReadResponse = readResponseClass();
  const dispatcher = new Agent({ connections: 256, maxResponseSize: maxResponseBytes });
  const send = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers: Record<string, string> = {};
    (init.headers instanceof Headers ? init.headers : new Headers(init.headers)).forEach((value, name) => (headers[name] = value));
    // A compressed answer would be inflated past the bound: none is asked for, and one sent anyway is refused.
    headers['accept-encoding'] = 'identity';
    const answer = await request(input instanceof Request ? input.url : input, {
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      headers,
      body: typeof init.body === 'string' || init.body == null ? init.body : Buffer.from(await new Response(init.body).arrayBuffer()),
      signal: init.signal ?? undefined,
      dispatcher,
    });
    const encoding = answer.headers['content-encoding'];
    if (encoding !== undefined && encoding !== 'identity') {
      await answer.body.dump(); // reads at most 128 KiB, then closes the connection
      throw new UnreadableAnswerError(
        `the endpoint sent a compressed answer (content-encoding: ${String(encoding)}) though it was asked for none`,
      );
    }
    let payload: Buffer;
    try {
      payload = Buffer.from(await answer.body.arrayBuffer());
    } catch (error) {
      if (error instanceof errors.ResponseExceededMaxSizeError) {
        throw new UnreadableAnswerError(`the endpoint's answer is larger than ${describeBytes(maxResponseBytes)}: it was cut off there`);
      }
      throw error;
    }
    return new ReadResponse(payload, { status: answer.statusCode, headers: toHeaders(answer.headers) });
  };
  return { fetch: send, close: () => dispatcher.destroy() };
}

/** undici's headers as the Response takes them (a header sent twice is two pairs): it fills its Headers once. */
function toHeaders(incoming: Record<string, string | string[] | undefined>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(incoming)) {
    for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) pairs.push([name, each]);
  }
  return pairs;
}

/**
 * A Response whose body undici has already read, within the bound: text() and json() decode the bytes
 * held. A Response made with its body would pass it through a web ReadableStream, which costs more CPU
 * than the rest of the call (docs/benchmarks.md); that stream is made only when `body` is asked for.
 * (The platform's types declare the body's readers as properties, so they are overridden as such.)
 * Made by the transport, not when this module loads: naming `Response` loads the platform's fetch, a
 * few hundredths of a second every command would pay.
 */
function readResponseClass() {
  return class ReadResponse extends Response {
    readonly #payload: Buffer;

    override readonly arrayBuffer = async (): Promise<ArrayBuffer> => new Uint8Array(this.#payload).buffer;

    override readonly text = async (): Promise<string> => this.#payload.toString('utf8');

    override readonly json = async (): Promise<unknown> => {
      const text = await this.text();
      try {
        return JSON.parse(text);
      } catch {
        throw new UnreadableAnswerError(`the endpoint's answer is not JSON: ${JSON.stringify(text.slice(0, 100))}`);
      }
    };

    constructor(payload: Buffer, init: ResponseInit) {
      super(null, init);
      this.#payload = payload;
      const nullBody = this.status === 204 || this.status === 304;
      Object.defineProperty(this, 'body', { get: () => (nullBody ? null : new Response(payload).body) });
    }
  };
}
