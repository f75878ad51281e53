// The same workload through evalgate and through promptfoo (run by `npm run bench`, or alone:
//   node bench/promptfoo.mjs). 2,000 prompts against a local OpenAI-compatible server answering after
// 20 ms, concurrency 32, no cache, both timed as whole processes. promptfoo (from npm, installed into
// bench/out/promptfoo once) needs Node 22, which comes from npm too (bench/node-from-npm.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { nodeFromNpm } from './node-from-npm.mjs';

const REQUESTS = 2000;
const CONCURRENCY = 32;
const home = resolve('bench/out/promptfoo');
const node22 = nodeFromNpm(22);
const promptfoo = join(home, 'node_modules/promptfoo/dist/src/main.js');

if (!existsSync(promptfoo)) {
  mkdirSync(home, { recursive: true });
  process.stderr.write('installing promptfoo from npm into bench/out/promptfoo (once)...\n');
  execFileSync('npm', ['install', '--prefix', home, '--no-audit', '--no-fund', '--no-save', 'promptfoo'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const server = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  await new Promise((done) => setTimeout(done, 20));
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'refund' }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
    }),
  );
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

const dir = join(home, 'workload');
mkdirSync(dir, { recursive: true });
writeFileSync(
  join(dir, 'data.jsonl'),
  Array.from({ length: REQUESTS }, (_, i) => JSON.stringify({ id: `q${i}`, input: `question ${i}`, references: ['refund'] })).join('\n'),
);
writeFileSync(join(dir, 'suite.yml'), 'version: 1\nname: bench\nscenarios:\n  - name: s\n    data: data.jsonl\n    scorer: exact_match\n');
writeFileSync(
  join(dir, 'tests.json'),
  JSON.stringify(
    Array.from({ length: REQUESTS }, (_, i) => ({ vars: { question: `question ${i}` }, assert: [{ type: 'equals', value: 'refund' }] })),
  ),
);
writeFileSync(
  join(dir, 'promptfooconfig.yaml'),
  `prompts:\n  - '{{question}}'\nproviders:\n  - id: openai:chat:bench\n    config:\n      apiBaseUrl: ${baseUrl}\n      apiKey: not-needed\ntests: file://tests.json\n`,
);

function timed(command, args, env = {}) {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) =>
      code === 0
        ? done(Number(process.hrtime.bigint() - started) / 1e9)
        : fail(new Error(`${command} exited ${code}: ${stderr.slice(-500)}`)),
    );
  });
}

const evalgate = await timed(process.execPath, [
  resolve('dist/cli.js'),
  'run',
  '--suite',
  'suite.yml',
  '--model',
  'openai:bench',
  '--base-url',
  baseUrl,
  '--out',
  'evalgate.jsonl',
  '--no-cache',
  '--concurrency',
  String(CONCURRENCY),
]);
const promptfooSeconds = await timed(
  node22,
  [
    promptfoo,
    'eval',
    '-c',
    'promptfooconfig.yaml',
    '--max-concurrency',
    String(CONCURRENCY),
    '--no-cache',
    '--no-progress-bar',
    '--no-write',
    '-o',
    'promptfoo.json',
  ],
  {
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_CONFIG_DIR: join(dir, '.promptfoo'),
  },
);
server.close();
const version = JSON.parse(
  execFileSync(node22, [
    '-e',
    `process.stdout.write(JSON.stringify(require('${join(home, 'node_modules/promptfoo/package.json')}').version))`,
  ]).toString(),
);
console.log(
  JSON.stringify({ requests: REQUESTS, concurrency: CONCURRENCY, evalgateSeconds: evalgate, promptfooSeconds, promptfooVersion: version }),
);
