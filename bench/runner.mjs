// The runner against a local OpenAI-compatible server (run by `npm run bench`, or alone:
//   node bench/runner.mjs [RUNS]). The server answers after a fixed 20 ms. Measures, RUNS times each
// (default 5), taken in turn:
// - 2,000 requests at concurrency 32 through `evalgate run` on this Node and on Node 24 (GitHub's
//   runtime for the action, from npm): the run's wall time against the ideal N x latency / concurrency,
//   and the process's peak memory;
// - the floor: the same requests through a bare keep-alive node:http client (bench/http-floor.mjs);
// - once, against a server answering after 100 ms, closer to a real model;
// - once, the same with 10% of requests failing (500, 429 with Retry-After, hangs past the time-out):
//   every example must end with exactly one record; the retries are counted.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFromNpm } from './node-from-npm.mjs';

const LATENCY_MS = 20;
const SLOW_LATENCY_MS = 100;
const REQUESTS = 2000;
const CONCURRENCY = 32;
const RUNS = Number(process.argv[2] ?? 5);

function startServer(faulty, latencyMs = LATENCY_MS) {
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
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (faulty && number % 30 === 0) return send(500, { error: { message: 'internal error' } });
    if (faulty && number % 30 === 10 && attempt === 1) return send(429, { error: { message: 'slow down' } }, { 'retry-after-ms': '50' });
    send(200, {
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'refund' }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        close: () =>
          new Promise((done) => {
            for (const r of hanging) r.destroy();
            server.close(done);
          }),
      }),
    ),
  );
}

function spawnAndRead(node, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) =>
      code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`${args[0]} exited ${code}: ${stderr.slice(-1000)}`)),
    );
  });
}

const dir = mkdtempSync(join(tmpdir(), 'evalgate-runner-'));
writeFileSync(
  join(dir, 'data.jsonl'),
  Array.from({ length: REQUESTS }, (_, i) => JSON.stringify({ id: `q${i}`, input: `question ${i}`, references: ['refund'] })).join('\n'),
);
writeFileSync(join(dir, 'suite.yml'), 'version: 1\nname: bench\nscenarios:\n  - name: s\n    data: data.jsonl\n    scorer: exact_match\n');

/** One `evalgate run` (through bench/measure.mjs, for the peak memory) and what it wrote. */
async function evalgateRun(node, url, out) {
  const { stderr } = await spawnAndRead(node, [
    'bench/measure.mjs',
    'evalgate',
    'run',
    '--suite',
    join(dir, 'suite.yml'),
    '--model',
    'openai:bench',
    '--base-url',
    url,
    '--out',
    out,
    '--no-cache',
    '--concurrency',
    String(CONCURRENCY),
    '--timeout',
    '1000',
    '--retries',
    '2',
  ]);
  const records = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  return {
    seconds: Number(/in ([\d.]+) s/.exec(stderr)[1]),
    retries: Number(/(\d+) retries/.exec(stderr)[1]),
    maxRss: Number(/maxRSS (\d+)/.exec(stderr)[1]) * 1024,
    records: records.length,
    distinct: new Set(records.map((record) => record.id)).size,
    errors: records.filter((record) => record.error).length,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** The median run by time; the outcome columns must be the same in every run. */
function summarize(runs) {
  const outcome = (run) => `${run.records}/${run.distinct}/${run.errors}/${run.retries}`;
  if (new Set(runs.map(outcome)).size > 1) throw new Error(`the runs differ: ${runs.map(outcome).join(', ')}`);
  return { ...runs[0], seconds: median(runs.map((run) => run.seconds)), maxRss: median(runs.map((run) => run.maxRss)), runs: runs.length };
}

const node24 = nodeFromNpm(24);
const versions = { node: process.version, node24: execFileSync(node24, ['--version']).toString().trim() };
const clean = await startServer(false);
const timings = { floor: [], evalgate: [], evalgate24: [] };
// One round first, not counted: the server's own code warms up.
for (let round = 0; round <= RUNS; round++) {
  const floor = Number(
    (await spawnAndRead(process.execPath, ['bench/http-floor.mjs', clean.url, String(REQUESTS), String(CONCURRENCY)])).stdout,
  );
  const evalgate = await evalgateRun(process.execPath, clean.url, join(dir, 'clean.jsonl'));
  const evalgate24 = await evalgateRun(node24, clean.url, join(dir, 'clean-24.jsonl'));
  if (round === 0) continue;
  timings.floor.push(floor);
  timings.evalgate.push(evalgate);
  timings.evalgate24.push(evalgate24);
}
await clean.close();

// A slower model, closer to real endpoints: does evalgate's overhead still show?
const slowServer = await startServer(false, SLOW_LATENCY_MS);
const slow = await evalgateRun(process.execPath, slowServer.url, join(dir, 'slow.jsonl'));
await slowServer.close();

const faultyServer = await startServer(true);
const faulty = await evalgateRun(process.execPath, faultyServer.url, join(dir, 'faulty.jsonl'));
await faultyServer.close();

const ideal = (REQUESTS * LATENCY_MS) / 1000 / CONCURRENCY;
console.log(
  JSON.stringify({
    requests: REQUESTS,
    concurrency: CONCURRENCY,
    latencyMs: LATENCY_MS,
    idealSeconds: ideal,
    runs: RUNS,
    versions,
    floorSeconds: median(timings.floor),
    clean: summarize(timings.evalgate),
    clean24: summarize(timings.evalgate24),
    faulty,
    slow: { ...slow, latencyMs: SLOW_LATENCY_MS, idealSeconds: (REQUESTS * SLOW_LATENCY_MS) / 1000 / CONCURRENCY },
  }),
);
