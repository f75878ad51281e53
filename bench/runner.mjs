// The runner against a local OpenAI-compatible server (run by `npm run bench`, or alone:
//   node bench/runner.mjs). The server answers after a fixed 20 ms. Measures:
// - 2,000 requests at concurrency 32: the run's wall time against the ideal N x latency / concurrency,
//   and the process's peak memory;
// - the same with 10% of requests failing (500, 429 with Retry-After, hangs past the time-out): every
//   example must end with exactly one record; the retries are counted.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LATENCY_MS = 20;
const REQUESTS = 2000;
const CONCURRENCY = 32;

function startServer(faulty) {
  const attempts = new Map();
  const hanging = new Set();
  const server = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const text = body.messages.map((message) => message.content).join('\n');
    const number = Number(/(\d+)$/.exec(text)?.[1] ?? 0);
    const attempt = (attempts.get(text) ?? 0) + 1;
    attempts.set(text, attempt);
    const send = (status, data, headers = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(data));
    };
    // 10% faulty: every 30th always 500, every 30th+10 a 429 on the first try, every 30th+20 hangs on the first try.
    if (faulty && number % 30 === 20 && attempt === 1) return hanging.add(response);
    await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
    if (faulty && number % 30 === 0) return send(500, { error: { message: 'internal error' } });
    if (faulty && number % 30 === 10 && attempt === 1) return send(429, { error: { message: 'slow down' } }, { 'retry-after-ms': '50' });
    send(200, {
      id: 'x', object: 'chat.completion', created: 0, model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'refund' }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/v1`,
    close: () => new Promise((done) => { for (const r of hanging) r.destroy(); server.close(done); }),
  })));
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bench/measure.mjs', 'evalgate', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => (code === 0 ? resolve(stderr) : reject(new Error(stderr))));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'evalgate-runner-'));
writeFileSync(join(dir, 'data.jsonl'), Array.from({ length: REQUESTS }, (_, i) => JSON.stringify({ id: `q${i}`, input: `question ${i}`, references: ['refund'] })).join('\n'));
writeFileSync(join(dir, 'suite.yml'), 'version: 1\nname: bench\nscenarios:\n  - name: s\n    data: data.jsonl\n    scorer: exact_match\n');

const results = {};
for (const faulty of [false, true]) {
  const server = await startServer(faulty);
  const out = join(dir, `out-${faulty}.jsonl`);
  const stderr = await run(['run', '--suite', join(dir, 'suite.yml'), '--model', 'openai:bench', '--base-url', server.url, '--out', out, '--no-cache', '--concurrency', String(CONCURRENCY), '--timeout', '1000', '--retries', '2']);
  await server.close();
  const seconds = Number(/in ([\d.]+) s/.exec(stderr)[1]);
  const retries = Number(/(\d+) retries/.exec(stderr)[1]);
  const maxRss = Number(/maxRSS (\d+)/.exec(stderr)[1]) * 1024;
  const records = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const ids = new Set(records.map((record) => record.id));
  results[faulty ? 'faulty' : 'clean'] = { seconds, retries, maxRss, records: records.length, distinct: ids.size, errors: records.filter((record) => record.error).length };
}
const ideal = (REQUESTS * LATENCY_MS) / 1000 / CONCURRENCY;
console.log(JSON.stringify({ requests: REQUESTS, concurrency: CONCURRENCY, latencyMs: LATENCY_MS, idealSeconds: ideal, ...results }));
