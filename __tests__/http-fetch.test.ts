import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { keepAliveFetch, UnreadableAnswerError } from '../src/runner/models/http-fetch.js';

// keepAliveFetch stands in for fetch inside the openai client: on the same server it must answer
// what fetch answers, for everything the client reads.
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.url === '/echo') {
      response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_1' });
      response.end(
        JSON.stringify({
          method: request.method,
          authorization: request.headers.authorization,
          body: Buffer.concat(chunks).toString('utf8'),
          text: 'naïve ✓',
        }),
      );
    } else if (request.url === '/large') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ text: 'x'.repeat(2000) }));
    } else if (request.url === '/gzip') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync(JSON.stringify({ accepted: request.headers['accept-encoding'] })));
    } else if (request.url === '/html') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('<html>not an API</html>');
    } else if (request.url === '/limited') {
      response.writeHead(429, 'Too Many Requests', { 'content-type': 'application/json', 'retry-after-ms': '50' });
      response.end('{"error":{"message":"slow down"}}');
    } else {
      response.writeHead(204);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

const transport = await keepAliveFetch();

afterAll(async () => {
  await transport.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function both(path: string, init?: RequestInit) {
  return [await fetch(`${base}${path}`, init), await transport.fetch(`${base}${path}`, init)];
}

describe('keepAliveFetch', () => {
  it('sends method, headers and body, and answers status, headers and JSON as fetch does', async () => {
    const init = {
      method: 'POST',
      headers: new Headers({ authorization: 'Bearer k', 'content-type': 'application/json' }),
      body: '{"q":1}',
    };
    const [expected, actual] = await both('/echo', init);
    expect([actual.status, actual.ok, actual.headers.get('x-request-id'), actual.headers.get('content-type')]).toEqual([
      expected.status,
      expected.ok,
      expected.headers.get('x-request-id'),
      expected.headers.get('content-type'),
    ]);
    const body = await actual.json();
    expect(body).toEqual(await expected.json());
    expect(body).toEqual({ method: 'POST', authorization: 'Bearer k', body: '{"q":1}', text: 'naïve ✓' });
  });

  it('answers an error status with its headers and text, and an empty body for 204', async () => {
    const [expected, actual] = await both('/limited');
    expect(actual).toBeInstanceOf(Response);
    expect([actual.status, actual.ok, actual.headers.get('retry-after-ms')]).toEqual([429, false, '50']);
    expect([expected.status, expected.headers.get('retry-after-ms')]).toEqual([429, '50']);
    expect(await actual.text()).toBe(await expected.text());
    const [expectedEmpty, actualEmpty] = await both('/nothing');
    expect([actualEmpty.status, actualEmpty.body]).toEqual([expectedEmpty.status, expectedEmpty.body]);
  });

  it('gives the body as a stream on demand', async () => {
    const [, actual] = await both('/echo', { method: 'POST', body: 'x' });
    const text = await new Response(actual.body).text();
    expect(JSON.parse(text).body).toBe('x');
  });

  it('reads an answer only up to its bound, and no compressed answer at all', async () => {
    const small = await keepAliveFetch(1000);
    try {
      await expect(small.fetch(`${base}/large`)).rejects.toThrow(
        new UnreadableAnswerError("the endpoint's answer is larger than 1000 bytes: it was cut off there"),
      );
      await expect(small.fetch(`${base}/echo`, { method: 'POST', body: 'x' })).resolves.toMatchObject({ status: 200 });
    } finally {
      await small.close();
    }
    // It asks for no compression (a compressed answer would inflate past the bound), and refuses one sent anyway.
    await expect(transport.fetch(`${base}/gzip`)).rejects.toThrow(
      'the endpoint sent a compressed answer (content-encoding: gzip) though it was asked for none',
    );
  });

  it('says when an answer is not JSON', async () => {
    const answer = await transport.fetch(`${base}/html`);
    await expect(answer.json()).rejects.toThrow(new UnreadableAnswerError('the endpoint\'s answer is not JSON: "<html>not an API</html>"'));
  });

  it('rejects when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(transport.fetch(`${base}/echo`, { signal: controller.signal })).rejects.toThrow(/abort/i);
  });
});
