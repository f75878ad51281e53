import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/*
 * A small fetch for the openai client over node:http(s) with keep-alive connection pools. The
 * client's own default (undici's fetch) costs about twice the CPU per request, which is what bounds
 * a run at high concurrency against a fast endpoint.
 */

const agents = { 'http:': new HttpAgent({ keepAlive: true, maxSockets: 256 }), 'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256 }) };

export async function keepAliveFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  const body = typeof init.body === 'string' ? init.body : init.body === undefined || init.body === null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
  return new Promise<Response>((resolve, reject) => {
    const request = send(url, { method: init.method ?? 'GET', headers, agent: agents[url.protocol as 'http:' | 'https:'], signal: init.signal ?? undefined }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const status = response.statusCode ?? 500;
        const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
        resolve(new Response(payload, { status, statusText: response.statusMessage, headers: responseHeaders }));
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}
