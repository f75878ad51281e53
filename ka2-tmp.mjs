import { Agent as HttpAgent, request as httpRequest } from 'node:http';
const agent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
export async function keepAliveFetch(input, init = {}) {
  const url = new URL(input);
  const headers = {};
  init.headers.forEach((value, name) => (headers[name] = value));
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        const status = response.statusCode ?? 500;
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status, ok: status >= 200 && status < 300, statusText: response.statusMessage, url: url.href, headers: responseHeaders, body: null, text: async () => text, json: async () => JSON.parse(text) });
      });
    });
    request.on('error', reject);
    request.end(init.body);
  });
}
