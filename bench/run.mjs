#!/usr/bin/env node
// npm run bench: (1) times `evalgate metrics --json` on 100k and 1M generated records beside the floor
// (reading and JSON-parsing the same file, nothing else), and `evalgate gate` of one compact run against
// another (bench/gate-policy.yml: five regression checks) beside the floor of both files; (2) simulates the gate's false alarms (A/A)
// and power (bench/simulate-gate.ts).
// (3) runs 2,000 requests through `evalgate run` against a local OpenAI-compatible endpoint, beside a
// bare HTTP client's floor, on this Node and on Node 24 (from npm, into bench/out/node24 once).
// (4) the same workload through promptfoo (installed from npm into bench/out/promptfoo once, on Node 22).
// (5) the HTML report of a gate of 100k records against 100k: the time beyond the gate itself, and its size.
// Prints every table, and writes each into docs/benchmarks.md between its markers
// <!-- bench:start --> ... <!-- bench:end --> (likewise runner, promptfoo, simulation).
// Options: --sizes 100000,1000000 and --compact-sizes 300000 ('' for none)  --runs 5  --trials 500  --only metrics|runner|promptfoo|simulation|samples|html
//          --no-docs (print only; --no-readme is the older name)
// Not in the default run (about an hour on two cores): --only simulation21, issue 21's simulations (bench/simulate21.ts
// in-process, bench/simulate21-cli.ts through dist/cli.js), their tables written into docs/statistics-design-21.md and
// docs/statistics.md; --part population,estimators,gate,realistic,resamples,reruns,done picks some (the others' last results, kept
// in bench/out/simulation21.json, are written again); `done` measures the Done-when through the CLI on the gate as built;
// `cli` (not in the default) the same cases as the gate met them before issue 21 (the "today" table: run it on such a bundle);
// --sim21-scale 0.1 scales every trial count (a quick look).
// Not in the default run either: --only bounds21, bounds on the biased metrics through the gate (bench/bounds21.ts;
// --bounds21-trials 200, about 1.5 s a trial), its table written into docs/statistics.md.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,1000000' },
    'compact-sizes': { type: 'string', default: '300000' },
    runs: { type: 'string', default: '5' },
    trials: { type: 'string', default: '500' },
    only: { type: 'string' },
    part: { type: 'string', default: 'population,estimators,gate,realistic,resamples,reruns,done' },
    'sim21-scale': { type: 'string', default: '1' },
    'bounds21-trials': { type: 'string', default: '200' },
    'no-docs': { type: 'boolean', default: false },
    'no-readme': { type: 'boolean', default: false },
  },
});
const sizes = values.sizes ? values.sizes.split(',').map(Number) : [];
const compactSizes = values['compact-sizes'] ? values['compact-sizes'].split(',').map(Number) : [];
const runs = Number(values.runs);
const outDir = 'bench/out';
mkdirSync(outDir, { recursive: true });

function run(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      const maxRss = Number(/maxRSS (\d+)/.exec(stderr)?.[1] ?? NaN) * 1024;
      resolve({ seconds, maxRss });
    });
  });
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

/** The floor and evalgate in turn, run after run, so that a drift of the machine's speed hits both. */
async function measurePair(floorArgs, evalgateArgs) {
  const floors = [];
  const evalgates = [];
  for (let i = 0; i < runs; i++) {
    floors.push(await run(floorArgs));
    evalgates.push(await run(evalgateArgs));
  }
  const summary = (results) => ({ seconds: median(results.map((r) => r.seconds)), maxRss: Math.max(...results.map((r) => r.maxRss)) });
  return { floor: summary(floors), evalgate: summary(evalgates), ratio: median(evalgates.map((r, i) => r.seconds / floors[i].seconds)) };
}

/** The pages that show the benchmarks' tables (the simulation's in both). */
const pages = ['docs/benchmarks.md', 'docs/statistics.md', 'docs/statistics-design-21.md', 'README.md'];

/** Replaces the text between <!-- NAME:start --> and <!-- NAME:end --> in a page. */
function replaceBetweenMarkers(page, name, text) {
  const pattern = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`);
  if (!pattern.test(page)) return undefined;
  return page.replace(pattern, () => `<!-- ${name}:start -->\n${text}\n<!-- ${name}:end -->`);
}

function writeIntoDocs(name, text) {
  if (values['no-docs'] || values['no-readme']) return;
  let written = 0;
  for (const page of pages) {
    const updated = replaceBetweenMarkers(readFileSync(page, 'utf8'), name, text);
    if (updated === undefined) continue;
    writeFileSync(page, updated);
    written++;
  }
  if (written === 0)
    process.stderr.write(
      `warning: no page of ${pages.join(', ')} has <!-- ${name}:start --> ... <!-- ${name}:end -->; table not written\n`,
    );
}

/** Bundles a TypeScript benchmark script into bench/out. */
function bundleScript(name) {
  return build({
    entryPoints: [`bench/${name}.ts`],
    outfile: join(outDir, `${name}.mjs`),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
}

async function samplesBenchmark() {
  await bundleScript('samples-mde');
  process.stderr.write('measuring what repeated samples let a check see...\n');
  const result = await runJsonScript(join(outDir, 'samples-mde.mjs'), ['20']);
  const text = [
    '| samples per example (K) | records | accuracy check: can detect (80%), mean | underpowered for detect 0.03 |',
    '|---:|---:|---:|---:|',
    ...result.rows.map(
      ({ samples, mde, underpowered }) =>
        `| ${samples} | ${(samples * result.instances).toLocaleString('en-US')} | ${mde.toFixed(4)} | ${(100 * underpowered).toFixed(0)}% of trials |`,
    ),
    '',
    `${result.instances} instances, the same non-deterministic model twice, ${result.trials} trials of each K (bench/samples-mde.ts), measured ${new Date().toISOString().slice(0, 10)}.`,
  ].join('\n');
  process.stdout.write(`${text}\n`);
  writeIntoDocs('samples', text);
}

async function simulation() {
  await bundleScript('simulate-gate');
  process.stderr.write(`simulating the gate, ${values.trials} trials...\n`);
  const result = await runJsonScript(join(outDir, 'simulate-gate.mjs'), [values.trials, '1000']);
  const percent = (x) => `${(100 * x).toFixed(1)}%`;
  const row = (label, { rate, margin95 }, target) => `| ${label} | ${percent(rate)} | ±${percent(margin95)} | ${target} |`;
  const text = [
    '| simulated: five blocking checks (accuracy, ece, accuracy_robust, accuracy_fair, latency_p95_ms), budgets 0, significance 0.05 | measured | 95% margin | target |',
    '|---|---:|---:|---|',
    row('A/A, 1,000 instances: share of gates that block (false blocks), Holm (default)', result.falseBlocks, 'at most 5%'),
    row('the same pairs without correction (`multiplicity: none`, the rule before)', result.falseBlocksUncorrected, '(for comparison)'),
    row('true 5-point accuracy drop, 1,000 instances: share that block (power)', result.power, 'at least 80%'),
    row(
      'true 6-point drop, 150 instances: share that do not pass cleanly (block, or warn underpowered)',
      result.smallNotCleanPass,
      'at least 95%',
    ),
    row('... of which block', result.smallBlocks, ''),
    '',
    `${result.trials} trials of each, ${result.resamples} resamples per gate, measured ${new Date().toISOString().slice(0, 10)}.`,
  ].join('\n');
  process.stdout.write(`${text}\n`);
  writeIntoDocs('simulation', text);
}

/** Issue 21's simulations: each part's JSON kept in bench/out/simulation21.json, every table rendered from it (bench/report21.ts). */
async function simulation21() {
  const parts = values.part.split(',');
  const scale = Number(values['sim21-scale']);
  const file = join(outDir, 'simulation21.json');
  const merged = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const date = new Date().toISOString().slice(0, 10);
  const inProcess = parts.filter((part) => part !== 'cli' && part !== 'done');
  if (inProcess.length > 0) {
    await bundleScript('simulate21');
    const result = await runJsonScript(join(outDir, 'simulate21.mjs'), [JSON.stringify({ parts: inProcess, scale })]);
    for (const part of inProcess) merged[part] = { ...result[part], date };
  }
  if (parts.includes('done')) {
    if (!existsSync('dist/cli.js')) throw new Error('dist/cli.js is missing: run npm run bundle first');
    await bundleScript('simulate21-cli');
    const trials = {
      trials: Math.max(5, Math.round(150 * scale)),
      slowTrials: Math.max(5, Math.round(60 * scale)),
      scenarios: ['small', 'aa600', 'realistic', 'resamples', 'reruns'],
    };
    merged.done = { ...(await runJsonScript(join(outDir, 'simulate21-cli.mjs'), [JSON.stringify(trials)])), date };
  }
  if (parts.includes('cli')) {
    if (!existsSync('dist/cli.js')) throw new Error('dist/cli.js is missing: run npm run bundle first');
    await bundleScript('simulate21-cli');
    const trials = { trials: Math.max(5, Math.round(150 * scale)), slowTrials: Math.max(5, Math.round(60 * scale)) };
    merged.cli = { ...(await runJsonScript(join(outDir, 'simulate21-cli.mjs'), [JSON.stringify(trials)])), date };
  }
  writeFileSync(file, JSON.stringify(merged));
  await bundleScript('report21');
  const sections = await runJsonScript(join(outDir, 'report21.mjs'), [file]);
  for (const [name, text] of Object.entries(sections)) {
    process.stdout.write(`${text}\n\n`);
    writeIntoDocs(name, text);
  }
}

/** Bounds on ece, ece_10_bin, a worst group and a gap, judged on their components through the gate (bench/bounds21.ts). */
async function bounds21() {
  await bundleScript('bounds21');
  const trials = Number(values['bounds21-trials']);
  process.stderr.write(`measuring bounds on the biased metrics through the gate, ${trials} trials...\n`);
  const result = await runJsonScript(join(outDir, 'bounds21.mjs'), [JSON.stringify({ trials, resamples: 1000 })]);
  const pct = ({ rate, low, high }) => `${(100 * rate).toFixed(1)}% [${(100 * low).toFixed(1)}, ${(100 * high).toFixed(1)}]`;
  const rows = Object.entries(result.truth).map(
    ([metric, truth]) =>
      `| \`${metric}\` (${truth.toFixed(4)}) | ${pct(result.lenientBlocked[metric])} | ${pct(result.covers[metric][200])} | ${pct(result.covers[metric][2000])} |`,
  );
  const text = [
    '| metric (population value) | one run of 300: a `lenient` bound at the population value blocks | the interval judged on covers it, 200 instances | 2,000 instances (little bootstrap) |',
    '|---|---:|---:|---:|',
    ...rows,
    '',
    '| A/A, 300 instances: the realistic policy blocks | |',
    '|---|---:|',
    `| \`bounds: lenient\` | ${pct(result.realisticLenient)} |`,
    `| \`bounds: point\` (the corrected estimates; no error control) | ${pct(result.realisticPoint)} |`,
    '',
    `Through the gate (evaluateGate, bench/bounds21.ts), population of bench/population21.ts (equal groups, calibrated); ${result.trials} trials, ${result.resamples} resamples a gate; Wilson's 95% intervals in brackets; measured ${new Date().toISOString().slice(0, 10)}.`,
  ].join('\n');
  process.stdout.write(`${text}\n`);
  writeIntoDocs('bounds21', text);
}

/** A generated records file in bench/out (made once): full records or compact ones, of a seed. */
async function recordsFile(size, compact, seed = 1) {
  const file = join(outDir, `records-${size}${compact ? '-compact' : ''}${seed === 1 ? '' : `-seed${seed}`}.jsonl`);
  if (!existsSync(file)) {
    process.stderr.write(`generating ${size} ${compact ? 'compact ' : ''}records (seed ${seed})...\n`);
    await run(['bench/generate.mjs', String(size), file, String(seed), ...(compact ? ['--compact'] : [])]);
  }
  return file;
}

async function metricsBenchmark() {
  const rows = [];
  // Full records (prompts, completions, tokens, cost: ~570 bytes) and compact ones (scenario, id,
  // correct, confidence, groups, latency: ~160 bytes), whose floor is smaller beside the same metrics;
  // then the gate of one compact run against another, beside the floor of reading both.
  const jobs = [...sizes.map((size) => ({ size, compact: false })), ...compactSizes.map((size) => ({ size, compact: true }))];
  for (const { size, compact } of jobs) {
    const file = await recordsFile(size, compact);
    const megabytes = statSync(file).size / 1e6;
    process.stderr.write(`measuring metrics on ${size} records (${megabytes.toFixed(0)} MB), ${runs} runs each...\n`);
    const measured = await measurePair(['bench/measure.mjs', 'floor', file], ['bench/measure.mjs', 'evalgate', 'metrics', file, '--json']);
    rows.push({
      records: `${size.toLocaleString('en-US')}${compact ? ' compact' : ''}`,
      command: '`metrics --json`',
      megabytes,
      ...measured,
    });
  }
  for (const size of compactSizes) {
    const [baseline, candidate] = [await recordsFile(size, true, 1), await recordsFile(size, true, 2)];
    const megabytes = (statSync(baseline).size + statSync(candidate).size) / 1e6;
    process.stderr.write(`measuring the gate of ${size} compact records against ${size}, ${runs} runs each...\n`);
    const gate = ['gate', '--policy', 'bench/gate-policy.yml', '--candidate', candidate, '--baseline', baseline];
    const measured = await measurePair(
      ['bench/measure.mjs', 'floor', baseline, candidate],
      ['bench/measure.mjs', 'evalgate', ...gate, '--json', join(outDir, 'gate-report.json')],
    );
    const records = `2 x ${size.toLocaleString('en-US')} compact`;
    rows.push({ records, command: '`gate --json`, five regression checks', megabytes, ...measured });
  }

  const table = [
    '| records | `evalgate` | file | floor: read + JSON.parse | evalgate | ratio | peak memory (floor / evalgate) |',
    '|---:|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      ({ records, command, megabytes, floor, evalgate, ratio }) =>
        `| ${records} | ${command} | ${megabytes.toFixed(0)} MB | ${floor.seconds.toFixed(2)} s | ${evalgate.seconds.toFixed(2)} s | ${ratio.toFixed(2)}x | ${mib(floor.maxRss)} / ${mib(evalgate.maxRss)} |`,
    ),
  ].join('\n');
  const machine = `Medians of ${runs} runs of each, taken in turn (the ratio is the median of the run-by-run ratios); Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, measured ${new Date().toISOString().slice(0, 10)}.`;
  process.stdout.write(`${table}\n\n${machine}\n`);

  writeIntoDocs('bench', `${table}\n\n${machine}`);
}

/** Runs a benchmark script and parses the JSON it prints. */
function runJsonScript(script, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`${script} exited ${code}`))));
  });
}

async function runnerBenchmark() {
  process.stderr.write(`running 2,000 requests against a local endpoint, ${runs} times each way, and once with faults...\n`);
  const result = await runJsonScript('bench/runner.mjs', [String(runs)]);
  const vsIdeal = (seconds) => `${(seconds / result.idealSeconds).toFixed(2)}x`;
  const row = (name, run) =>
    `| ${name} | ${run.seconds.toFixed(2)} s | ${vsIdeal(run.seconds)} | ${run.records} records, ${run.distinct} distinct examples, ${run.errors} with error | ${run.retries} | ${mib(run.maxRss)} |`;
  const text = [
    `| ${result.requests} requests, concurrency ${result.concurrency}, server latency ${result.latencyMs} ms | run time | vs ideal ${result.idealSeconds.toFixed(2)} s | outcome | retries | peak memory |`,
    '|---|---:|---:|---|---:|---:|',
    `| floor: a bare keep-alive \`node:http\` client, no model client, no records (Node ${result.versions.node}) | ${result.floorSeconds.toFixed(2)} s | ${vsIdeal(result.floorSeconds)} | | | |`,
    row(`\`evalgate run\`, all answered (Node ${result.versions.node})`, result.clean),
    row(`\`evalgate run\`, all answered (Node ${result.versions.node24}, the action's runtime)`, result.clean24),
    row(
      `\`evalgate run\`, 10% faulty: 500 always, 429 then answer, hang then answer (Node ${result.versions.node}, one run)`,
      result.faulty,
    ),
    '',
    `| the same against a server answering after ${result.slow.latencyMs} ms | run time | vs ideal ${result.slow.idealSeconds.toFixed(2)} s | outcome | retries | peak memory |`,
    '|---|---:|---:|---|---:|---:|',
    `| \`evalgate run\`, all answered (Node ${result.versions.node}, one run) | ${result.slow.seconds.toFixed(2)} s | ${(result.slow.seconds / result.slow.idealSeconds).toFixed(2)}x | ${result.slow.records} records, ${result.slow.distinct} distinct examples, ${result.slow.errors} with error | ${result.slow.retries} | ${mib(result.slow.maxRss)} |`,
    '',
    `Medians of ${result.runs} runs of each, taken in turn; run time is from the first request to the last record. The local server runs on the same ${cpus().length} vCPUs; measured ${new Date().toISOString().slice(0, 10)}.`,
  ].join('\n');
  process.stdout.write(`${text}\n`);
  writeIntoDocs('runner', text);
}

async function promptfooBenchmark() {
  process.stderr.write('the same workload through evalgate and promptfoo...\n');
  const result = await runJsonScript('bench/promptfoo.mjs');
  const text = [
    `| ${result.requests} requests, concurrency ${result.concurrency}, server latency 20 ms, whole process | time | ratio |`,
    '|---|---:|---:|',
    `| \`evalgate run\` (Node ${process.version}) | ${result.evalgateSeconds.toFixed(2)} s | 1x |`,
    `| \`promptfoo eval\` ${result.promptfooVersion} (Node 22, from npm) | ${result.promptfooSeconds.toFixed(2)} s | ${(result.promptfooSeconds / result.evalgateSeconds).toFixed(1)}x |`,
  ].join('\n');
  process.stdout.write(`${text}\n`);
  writeIntoDocs('promptfoo', text);
}

/** The median time headless Chromium takes from navigating to the demo's HTML report to its load event. */
async function demoLoadTime() {
  const html = join(outDir, 'demo-report.html');
  const demo = ['--candidate', 'examples/billing/candidate-a.jsonl', '--baseline', 'examples/billing/baseline.jsonl'];
  spawnSync(process.execPath, ['dist/cli.js', 'gate', '--policy', 'policies/customer-support.yml', ...demo, '--html', html]); // exits 1: the demo fails
  const { default: chromium } = await import('@sparticuz/chromium');
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
  try {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
      times.push(await page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventEnd));
      await page.close();
    }
    return median(times);
  } finally {
    await browser.close();
  }
}

/** The HTML report of a gate of 100k generated records against another 100k, timed in-process (bench/html-report.ts). */
async function htmlBenchmark() {
  const size = 100000;
  const files = [await recordsFile(size, false, 1), await recordsFile(size, false, 2)];
  await bundleScript('html-report');
  process.stderr.write(`measuring the HTML report of a gate of ${size} records, ${runs} runs...\n`);
  const results = [];
  for (let i = 0; i < runs; i++) {
    results.push(await runJsonScript(join(outDir, 'html-report.mjs'), ['policies/customer-support.yml', ...files]));
  }
  const seconds = (key) => `${median(results.map((result) => result[key])).toFixed(2)} s`;
  const loadMs = await demoLoadTime();
  const text = [
    `| gate of ${size.toLocaleString('en-US')} records against ${size.toLocaleString('en-US')} (customer-support policy), one process | measured | target |`,
    '|---|---:|---|',
    `| the gate (every check, 1,000 resamples) | ${seconds('gateSeconds')} | |`,
    `| the JSON report, with what the charts draw (the baseline's metrics, confidence bins, latencies) | ${seconds('reportSeconds')} | |`,
    `| the HTML report (vega loaded, every chart rendered to SVG) | ${seconds('htmlSeconds')} | under 2 s beyond the gate |`,
    `| the HTML report's size | ${(median(results.map((result) => result.bytes)) / 1e3).toFixed(0)} kB | under 2 MB |`,
    `| the demo's HTML report in headless Chromium: navigation start to load end | ${loadMs.toFixed(0)} ms | |`,
    '',
    `Medians of ${runs} runs (bench/html-report.ts); Node ${process.version}, ${cpus().length} cores, measured ${new Date().toISOString().slice(0, 10)}.`,
  ].join('\n');
  process.stdout.write(`${text}\n`);
  writeIntoDocs('html-report', text);
}

const mib = (bytes) => `${Math.round(bytes / 2 ** 20)} MiB`;

if (!values.only || values.only === 'metrics') await metricsBenchmark();
if (!values.only || values.only === 'runner') await runnerBenchmark();
if (!values.only || values.only === 'promptfoo') await promptfooBenchmark();
if (!values.only || values.only === 'simulation') await simulation();
if (!values.only || values.only === 'samples') await samplesBenchmark();
if (!values.only || values.only === 'html') await htmlBenchmark();
if (values.only === 'simulation21') await simulation21();
if (values.only === 'bounds21') await bounds21();
