import { describe, expect, it } from '@jest/globals';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeOptionsOf, MetricsMemo } from '../src/gate/compare.js';
import { RunMetrics, type ComputeOptions, type ScenarioName } from '../src/metrics/compute.js';
import { orderedRows } from '../src/metrics/ordering.js';
import { buildTable, METRICS_TABLE_FIELDS, type MetricsTable } from '../src/metrics/table.js';
import { gateRun } from '../src/pipeline/gate-run.js';
import { AHEAD_MIN_BYTES, MetricsThread, THREAD_MIN_RECORDS } from '../src/pipeline/metrics-thread.js';
import { loadPolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import { loadRun } from '../src/runs/load.js';
import { loadRecordTable } from '../src/runs/records.js';
import { evalgate, gateArgs } from './helpers/evalgate.js';
import { record, tempDir, writeLines } from './helpers/records.js';

/*
 * A gate's candidate scopes computed in a second thread (src/pipeline/metrics-thread.ts) and adopted by
 * the main thread give the same report, to the last bit, as one thread: in-process through RunMetrics'
 * exchange (structuredClone, as a thread's message copies), and through the bundle with the thread
 * forced on (EVALGATE_THREADS=1) and off (0).
 */

const options: ComputeOptions = { resamples: 100, seed: 7, minGroupSize: 3 };

/** Records of `scenarios` scenarios (one called "overall", one "__proto__"), groups, failures and repeated samples. */
function records(scenarios: number): EvalRecord[] {
  const names = ['overall', '__proto__', ...Array.from({ length: scenarios - 2 }, (_, k) => `s${k}`)];
  return names.flatMap((scenario, s) =>
    Array.from({ length: 12 }, (_, i) =>
      [0, 1].map((sample) =>
        i === 5 && sample === 1
          ? ({ scenario, id: `q${i}`, sample, error: 'timed out' } as EvalRecord)
          : record({
              scenario,
              id: `q${i}`,
              sample,
              correct: (i * 7 + s + sample) % 3 === 0 ? 0 : 1,
              confidence: 0.5 + ((i + s) % 5) / 10,
              latency_ms: 100 + ((i * 37 + s * 11 + sample) % 90),
              groups: { 'region:eu': i % 2 ? 'a=b' : 'south', ['__proto__']: i % 3 ? 'a' : 'b' },
            }),
      ),
    ).flat(),
  );
}

// Typed arrays as lists (a cloned one belongs to another realm in jest: no instanceof).
const json = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (ArrayBuffer.isView(v) ? [...(v as Float64Array)] : v));

describe('scopes computed by another RunMetrics of the same records, adopted', () => {
  // 203 scenarios: more than MAX_INTERVAL_SCENARIOS (200) get intervals, so the adopted scopes keep that rule.
  const file = writeLines('thread-scopes.jsonl', records(203));

  it('the same report and resampled values, the named scopes and the pooled one apart', async () => {
    const named: ScenarioName[] = [undefined, 's150', 'overall'];
    const alone = new RunMetrics(await loadRecordTable(file), options);
    const here = new RunMetrics(await loadRecordTable(file), options);
    const entries = structuredClone(new RunMetrics(await loadRecordTable(file), options).computeScopes(named));
    here.adopt(entries);
    expect(json(here.report(named))).toBe(json(alone.report(named)));
    expect(json(here.samples(named))).toBe(json(alone.samples(named)));
    expect(alone.report(named).scenariosWithoutIntervals).toBe(3); // 203 scenarios, 200 with intervals (the named among them)
    // The scenario called "overall" is not the pooled scope, and "__proto__" is a scenario like any other.
    expect(entries.filter(([scenario]) => scenario === undefined)).toHaveLength(1);
    expect(Object.keys(here.report(named).scenarios)).toContain('__proto__');
  }, 120_000);

  it('a gate reads the adopted scopes: the same report as computing them, another with other resamples', async () => {
    const policyFile = join(tempDir(), 'p.yml');
    writeFileSync(
      policyFile,
      'version: 1\nname: p\nsettings:\n  resamples: 100\nchecks:\n  - metric: accuracy\n    max_regression: 0.01\n  - metric: ece\n    scenario: s150\n    max: 0.3\n',
    );
    const policy = await loadPolicy(policyFile);
    const baselineFile = writeLines('thread-baseline.jsonl', records(203).reverse());
    const named = [undefined, ...policy.policy.checks.map((check) => check.scenario)];
    /** The gate's JSON report, the candidate's scopes computed by another RunMetrics (under `adopted` options) or by the gate. */
    const gate = async (adopted?: ComputeOptions) => {
      const inputs = { policy, candidate: await loadRun(file), baseline: await loadRun(baselineFile) };
      const memo = new MetricsMemo();
      if (adopted && inputs.candidate.kind === 'records') {
        const scopes = new RunMetrics(inputs.candidate.table, adopted).computeScopes(named);
        memo.computedElsewhere(inputs.candidate, computeOptionsOf(policy.policy), async () => structuredClone(scopes));
      }
      return JSON.stringify(await gateRun(inputs, memo));
    };
    const alone = await gate();
    expect(await gate(computeOptionsOf(policy.policy))).toBe(alone);
    // Scopes adopted from other resamples show in the report: the adopted ones are what it reads.
    expect(await gate({ ...computeOptionsOf(policy.policy), seed: 8 })).not.toBe(alone);
  }, 120_000);
});

describe('the rows ordered before a table is sent to the thread', () => {
  const file = writeLines('thread-orderings.jsonl', records(6));

  it('in shared memory, and the scopes computed with them the same as with rows ordered by the thread itself', async () => {
    const named: ScenarioName[] = [undefined, 's1'];
    const table = await loadRecordTable(file);
    const orderings = orderedRows(table);
    expect([...orderings.keys()].sort()).toEqual(['confidence', 'latencyMs']);
    const kind = (array: Int32Array) => Object.prototype.toString.call(array.buffer);
    for (const { rankOf, rowAtRank } of orderings.values())
      expect([kind(rankOf), kind(rowAtRank)]).toEqual(Array(2).fill('[object SharedArrayBuffer]'));
    // As the thread gets it: the metrics' fields and the orderings, cloned.
    const sent = structuredClone({
      ...Object.fromEntries(METRICS_TABLE_FIELDS.map((field) => [field, table[field]])),
      orderings,
    }) as MetricsTable;
    const ownOrder = new RunMetrics(await loadRecordTable(file), options).computeScopes(named);
    expect(json(new RunMetrics(sent, options).computeScopes(named))).toBe(json(ownOrder));
  });
});

describe('run from source, where no thread program lies beside this one', () => {
  it('a large run is computed in this thread under auto, and is an error under always', () => {
    const table = buildTable(Array.from({ length: THREAD_MIN_RECORDS }, (_, i) => record({ id: `q${i}` })));
    const job = { options, named: [] };
    expect(MetricsThread.ahead('auto', AHEAD_MIN_BYTES)).toBeUndefined();
    expect(MetricsThread.ahead('always', 0)).toBeUndefined();
    expect(MetricsThread.start(table, job, 'auto')).toBeUndefined();
    expect(() => MetricsThread.start(table, job, 'always')).toThrow('no metrics thread program lies beside this one');
  });
});

describe('the bundled CLI with the candidate scopes in a second thread', () => {
  const example = (file: string) => join('examples/billing', file);

  it('gate: the same reports and exit code with the thread forced on and off', async () => {
    const reports = async (threads: string, policy: string, candidate: string, baseline: string) => {
      const dir = tempDir();
      const [json, markdown] = [join(dir, 'r.json'), join(dir, 'r.md')];
      const result = await evalgate(gateArgs(policy, candidate, baseline, { json, markdown }), {
        ...process.env,
        EVALGATE_THREADS: threads,
      });
      expect(result.stderr).toBe('');
      return { code: result.code, text: result.stdout, json: readFileSync(json, 'utf8'), markdown: readFileSync(markdown, 'utf8') };
    };
    const runs: Array<[string, string, string]> = [
      ['policies/default.yml', example('candidate-b.jsonl'), example('baseline.jsonl')],
      ['policies/customer-support.yml', example('candidate-a.jsonl'), example('baseline.jsonl')],
      ['policies/default.yml', writeLines('thread-cli-c.jsonl', records(8)), writeLines('thread-cli-b.jsonl', records(8).reverse())],
    ];
    for (const [policy, candidate, baseline] of runs) {
      const [on, off] = [await reports('1', policy, candidate, baseline), await reports('0', policy, candidate, baseline)];
      expect(on).toEqual(off);
    }
  }, 120_000);

  it('a thread started ahead of a candidate it does not compute changes nothing: the same reports and exit code', async () => {
    const dir = tempDir();
    const metricsFile = join(dir, 'candidate-metrics.json');
    const written = await evalgate(['metrics', example('candidate-a.jsonl'), '--json']);
    expect(written.code).toBe(0);
    writeFileSync(metricsFile, written.stdout);
    // Over AHEAD_MIN_BYTES (5 MB) in 2,000 records, fewer than THREAD_MIN_RECORDS: started ahead under auto, then ended.
    const long = writeLines(
      'thread-ahead-long.jsonl',
      Array.from({ length: 2000 }, (_, i) => record({ id: `q${i}`, correct: i % 3 ? 1 : 0, prompt: 'x'.repeat(2600) })),
    );
    const cases: Array<[string, string[]]> = [
      ['a metrics file', gateArgs('policies/default.yml', metricsFile, example('baseline.jsonl'))],
      ['a large file of few records', gateArgs('policies/default.yml', long, writeLines('thread-ahead-base.jsonl', records(8)))],
    ];
    for (const [, args] of cases) {
      const [ahead, alone] = [
        await evalgate(args, { ...process.env, EVALGATE_THREADS: '' }),
        await evalgate(args, { ...process.env, EVALGATE_THREADS: '0' }),
      ];
      expect(ahead).toEqual(alone);
    }
    expect(statSync(long).size).toBeGreaterThan(AHEAD_MIN_BYTES);
  }, 120_000);

  it('bad input read while the thread computes is one clear line and exit 2, as without it', async () => {
    const bad = writeLines('thread-bad.jsonl', ['{"scenario":']);
    const args = gateArgs('policies/default.yml', example('candidate-a.jsonl'), bad);
    for (const threads of ['1', '0']) {
      const result = await evalgate(args, { ...process.env, EVALGATE_THREADS: threads });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`evalgate: ${bad}:1: not valid JSON: Unexpected end of JSON input\n`);
    }
    // The candidate read while the thread started ahead loads: the same line, and the process ends.
    const missing = join(tempDir(), 'missing.jsonl');
    for (const candidate of [bad, missing]) {
      for (const threads of ['1', '']) {
        const result = await evalgate(gateArgs('policies/default.yml', candidate, example('baseline.jsonl')), {
          ...process.env,
          EVALGATE_THREADS: threads,
        });
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(
          new RegExp(`^evalgate: ${candidate.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:1: not valid JSON|: no such file)`),
        );
      }
    }
  }, 120_000);
});
