import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/*
 * A small fetch for the openai client over node:http(s) with keep-alive connection pools. The
 * client's own default (undici's fetch) costs about twice the CPU per request, which is what bounds
 * a run at high concurrency against a fast endpoint.
 */

/** A fetch with connection pools of its own; `close` ends their idle connections. */
export interface KeepAliveFetch {
  fetch: typeof fetch;
  close(): void;
}

export function keepAliveFetch(): KeepAliveFetch {
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets: 256 }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
  };
  const send = (input: string | URL | Request, init: RequestInit = {}) => request(agents, input, init);
  return {
    fetch: send as typeof fetch,
    close: () => Object.values(agents).forEach((agent) => agent.destroy()),
  };
}

async function request(agents: Record<'http:' | 'https:', HttpAgent>, input: string | URL | Request, init: RequestInit): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = {};
  (init.headers instanceof Headers ? init.headers : new Headers(init.headers)).forEach((value, name) => (headers[name] = value));
  const body =
    typeof init.body === 'string'
      ? init.body
      : init.body === undefined || init.body === null
        ? undefined
        : Buffer.from(await new Response(init.body).arrayBuffer());
  return new Promise<Response>((resolve, reject) => {
    const outgoing = send(
      url,
      { method: init.method ?? 'GET', headers, agent: agents[url.protocol as 'http:' | 'https:'], signal: init.signal ?? undefined },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 500;
          const payload = Buffer.concat(chunks);
          resolve(
            new BufferedResponse(
              url.href,
              status,
              response.statusMessage ?? '',
              toHeaders(response.headers),
              payload,
            ) as unknown as Response,
          );
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/**
 * A response whose body has already been read in full: what a fetch Response offers for a
 * non-streaming call (status, headers, text, json, arrayBuffer, and a body stream on demand), without
 * the web streams a Response sets up for every body, which cost as much CPU as the request itself.
 */
class BufferedResponse {
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic';
  bodyUsed = false;

  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    private readonly payload: Buffer,
  ) {
    this.ok = status >= 200 && status < 300;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.status === 204 || this.status === 304 ? null : new Response(this.payload).body;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    this.bodyUsed = true;
    return new Uint8Array(this.payload).buffer;
  }

  async text(): Promise<string> {
    this.bodyUsed = true;
    return this.payload.toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}
