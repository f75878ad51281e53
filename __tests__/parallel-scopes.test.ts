import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeOptionsOf } from '../src/gate/compare.js';
import { RunMetrics, type ComputeOptions, type ScenarioName } from '../src/metrics/compute.js';
import { gateRun } from '../src/pipeline/gate-run.js';
import { loadPolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import { loadRun } from '../src/runs/load.js';
import { loadRecordTable } from '../src/runs/records.js';
import { evalgate } from './helpers/evalgate.js';
import { record, tempDir, writeLines } from './helpers/records.js';

/*
 * A large run's scopes computed in a second thread (src/pipeline/parallel-scopes.ts) and adopted by the
 * main thread give the same report, to the last bit, as one thread: in-process through RunMetrics'
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
              groups: { region: i % 2 ? 'north' : 'south', ['__proto__']: i % 3 ? 'a' : 'b' },
            }),
      ),
    ).flat(),
  );
}

// Typed arrays as lists (a cloned one belongs to another realm in jest: no instanceof).
const json = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (ArrayBuffer.isView(v) ? [...(v as Float64Array)] : v));

describe('scopes computed by another RunMetrics of the same records, adopted', () => {
  // 203 scenarios: more than MAX_INTERVAL_SCENARIOS (200) get intervals, so the split keeps its rule.
  const file = writeLines('parallel-scopes.jsonl', records(203));

  it.each([
    ['the metrics command: the scenarios elsewhere, the pooled scope here', 'scenarios' as const, [] as ScenarioName[]],
    ['a gate: every scope elsewhere, the checks named', 'all' as const, [undefined, 's150', 'overall']],
  ])(
    '%s: the same report and samples',
    async (_, part, named) => {
      const alone = new RunMetrics(await loadRecordTable(file), options);
      const other = new RunMetrics(await loadRecordTable(file), options);
      const here = new RunMetrics(await loadRecordTable(file), options);
      const entries = structuredClone(other.computeScopes(part, named));
      if (part === 'scenarios') here.computeScopes('pooled', named);
      here.adopt(entries);
      expect(json(here.report(named))).toBe(json(alone.report(named)));
      expect(json(here.samples(named))).toBe(json(alone.samples(named)));
      expect(alone.report(named).scenariosWithoutIntervals).toBe(3); // 203 scenarios, 200 with intervals (the named among them)
      // The scenario called "overall" is not the pooled scope.
      expect(entries.filter(([scenario]) => scenario === null)).toHaveLength(part === 'all' ? 1 : 0);
    },
    120_000,
  );

  it('a gate adopts the candidate scopes after its comparisons: the same report as computing them', async () => {
    const policyFile = join(tempDir(), 'p.yml');
    writeFileSync(
      policyFile,
      'version: 1\nname: p\nsettings:\n  resamples: 100\nchecks:\n  - metric: accuracy\n    max_regression: 0.01\n  - metric: ece\n    scenario: s150\n    max: 0.3\n',
    );
    const policy = await loadPolicy(policyFile);
    const baselineFile = writeLines('parallel-baseline.jsonl', records(203).reverse());
    const named = [undefined, ...policy.policy.checks.map((check) => check.scenario)];
    const options = computeOptionsOf(policy.policy);
    /** The gate's JSON report, the candidate's scopes computed by another RunMetrics (under `adopted` options) or by the gate. */
    const gate = async (adopted?: ComputeOptions) => {
      const scopes = async (computeOptions: ComputeOptions) =>
        structuredClone(new RunMetrics(await loadRecordTable(file), computeOptions).computeScopes('all', named));
      const inputs = { policy, candidate: await loadRun(file), baseline: await loadRun(baselineFile) };
      return JSON.stringify(await gateRun(adopted ? { ...inputs, candidateScopes: { scopes: () => scopes(adopted) } } : inputs));
    };
    const alone = await gate();
    expect(await gate(options)).toBe(alone);
    // Scopes adopted from other resamples show in the report: the adopted ones are what it reads.
    expect(await gate({ ...options, seed: options.seed + 1 })).not.toBe(alone);
  }, 120_000);
});

describe('the bundled CLI with the scopes in a second thread', () => {
  const example = (file: string) => join('examples/billing', file);
  const run = async (env: string, args: string[]) => {
    const result = await evalgate(args, { ...process.env, EVALGATE_THREADS: env });
    expect(result.stderr).toBe('');
    return result;
  };

  it('metrics --json: the same bytes with the thread forced on and off', async () => {
    for (const file of [example('candidate-a.jsonl'), writeLines('parallel-cli.jsonl', records(8))]) {
      const args = ['metrics', '--json', '--resamples', '300', file];
      const [on, off] = [await run('1', args), await run('0', args)];
      expect(on.code).toBe(0);
      expect(on.stdout).toBe(off.stdout);
    }
  }, 120_000);

  it('gate: the same reports and exit code with the thread forced on and off', async () => {
    const reports = async (env: string, policy: string) => {
      const dir = tempDir();
      const out = ['--json', join(dir, 'r.json'), '--markdown', join(dir, 'r.md')];
      const result = await run(env, [
        'gate',
        '--policy',
        policy,
        '--candidate',
        example('candidate-b.jsonl'),
        '--baseline',
        example('baseline.jsonl'),
        ...out,
      ]);
      return { code: result.code, text: result.stdout, json: readFileSync(out[1], 'utf8'), markdown: readFileSync(out[3], 'utf8') };
    };
    for (const policy of ['policies/default.yml', 'policies/customer-support.yml']) {
      const [on, off] = [await reports('1', policy), await reports('0', policy)];
      expect(on).toEqual(off);
    }
  }, 120_000);

  it('bad input read while the thread computes is one clear line and exit 2, as without it', async () => {
    const bad = writeLines('parallel-bad.jsonl', ['{"scenario":']);
    const args = ['gate', '--policy', 'policies/default.yml', '--candidate', example('candidate-a.jsonl'), '--baseline', bad];
    for (const env of ['1', '0']) {
      const result = await evalgate(args, { ...process.env, EVALGATE_THREADS: env });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`evalgate: ${bad}:1: not valid JSON: Unexpected end of JSON input\n`);
    }
  }, 120_000);
});
