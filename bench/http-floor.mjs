// The floor for the runner's benchmark: the same requests through a bare keep-alive node:http client
// (evalgate gives the openai client undici's request API over keep-alive pools, each answer read to a
// bound), with no model client, no scoring and no records.
//   node bench/http-floor.mjs BASE_URL REQUESTS CONCURRENCY  ->  prints the seconds from the first
// request to the last response.
import { Agent, request } from 'node:http';

const [baseUrl, requests, concurrency] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const url = `${baseUrl}/chat/completions`;

function complete(i) {
  const body = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: `question ${i}` }], logprobs: true });
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json' } },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
            : reject(new Error(`HTTP ${response.statusCode}`)),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < requests) await complete(next++);
  }),
);
process.stdout.write(`${(performance.now() - started) / 1000}\n`);
agent.destroy();
