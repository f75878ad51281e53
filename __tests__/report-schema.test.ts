import { describe, expect, it } from '@jest/globals';
import type { z } from 'zod';
import { MAX_INTERVAL_SCENARIOS } from '../src/limits.js';
import { computeMetrics } from '../src/metrics/compute.js';
import { buildTable } from '../src/metrics/table.js';
import { readRecords } from '../src/records/read.js';
import { gateRun } from '../src/pipeline/gate-run.js';
import { parsePolicy } from '../src/policy/load.js';
import { gateReportSchema, parseGateReport, type GateReport } from '../src/report/json.js';
import { loadRun, type RunInput } from '../src/runs/load.js';
import { Random } from '../src/stats/random.js';
import { record, writeLines } from './helpers/records.js';

/*
 * The JSON report's schema is the one source of its type: a report the gate writes, read back, keeps
 * every field, and the gate writes every field the schema knows. A field added to one side only (the
 * builder, a gate type, the schema) fails here: the reader would drop it without a word, or no report
 * would ever carry it.
 */

interface Definition {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  valueType?: z.ZodType;
}
const definitionOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Definition } })._zod.def;

/** The schema under optional, nullable, default and the pipes of a transform (a dictionary's). */
function unwrap(schema: z.ZodType): Definition {
  const definition = definitionOf(schema);
  if (definition.innerType) return unwrap(definition.innerType);
  if (definition.type === 'pipe') return unwrap(definitionOf(definition.in!).type === 'transform' ? definition.out! : definition.in!);
  return definition;
}

/** Every field path of a schema: "checks[].comparison.pWorse"; a dictionary's keys are "*". */
function schemaPaths(schema: z.ZodType, path = ''): string[] {
  const definition = unwrap(schema);
  if (definition.type === 'object') {
    return Object.entries(definition.shape!).flatMap(([key, field]) => [`${path}.${key}`, ...schemaPaths(field, `${path}.${key}`)]);
  }
  if (definition.type === 'array') return schemaPaths(definition.element!, `${path}[]`);
  if (definition.type === 'map' || definition.type === 'record') return schemaPaths(definition.valueType!, `${path}.*`);
  return [];
}

/** The field paths a value holds (null and undefined fields left out), as schemaPaths names them, read along the schema. */
function valuePaths(schema: z.ZodType, value: unknown, path = ''): string[] {
  if (value === null || value === undefined) return [];
  const definition = unwrap(schema);
  if (definition.type === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== null && field !== undefined)
      .flatMap(([key, field]) => {
        const fieldSchema = definition.shape![key];
        return fieldSchema
          ? [`${path}.${key}`, ...valuePaths(fieldSchema, field, `${path}.${key}`)]
          : [`${path}.${key} (not in the schema)`];
      });
  }
  if (definition.type === 'array') return (value as unknown[]).flatMap((element) => valuePaths(definition.element!, element, `${path}[]`));
  if (definition.type === 'map' || definition.type === 'record') {
    return Object.values(value as Record<string, unknown>).flatMap((field) => valuePaths(definition.valueType!, field, `${path}.*`));
  }
  return [];
}

// Every part of the decision: a lenient bound in the family, a borderline and an underpowered check, a
// budget a trade-off relaxes (tested as a budget), a budget of 0 (pWorse's test), non-inferiority, a calibration check (its bins), coverage, latencies.
const POLICY = `version: 1
name: every field
settings:
  resamples: 400
  bounds: lenient
  coverage:
    min: 0.99
checks:
  - metric: accuracy
    min: 0.75
    max_regression: 0.02
    detect: 0.03
  - metric: accuracy
    scenario: billing
    max_regression: 0.01
    test: non-inferiority
  - metric: ece
    max: 0.1
    max_regression: 0
  - metric: latency_p95_ms
    max_regression: 50%
    severity: warn
  - metric: group_accuracy
    group: { attribute: dialect, value: aae }
    min: 0
    severity: warn
tradeoffs:
  - name: calibration buys accuracy
    allow:
      - { metric: accuracy, max_regression: 0.04 }
    when:
      - { metric: ece, min_improvement: 0.001 }
`;

/**
 * Reports of the bundled example through the pipeline, with what the action adds (the event, the
 * policy's source, the baseline's commit): against the baseline's records, and against its metrics
 * file (whose intervals the report's baselineMetrics keep).
 */
async function fullReports(): Promise<[GateReport, GateReport]> {
  const policy = parsePolicy(POLICY, 'every-field.yml');
  const candidate = await loadRun('examples/billing/candidate-a.jsonl');
  const baseline = await loadRun('examples/billing/baseline.jsonl');
  const report = await gateRun({ policy, candidate, baseline });
  const metricsFile: RunInput = {
    kind: 'metrics',
    file: 'baseline.json',
    report: computeMetrics((baseline as Extract<RunInput, { kind: 'records' }>).table, { resamples: 50, seed: 1, minGroupSize: 10 }),
  };
  const againstSummary = await gateRun({ policy, candidate, baseline: metricsFile });
  const fromAction: GateReport = {
    ...report,
    policy: { ...report.policy, source: 'at the base commit 0123abc' },
    github: { event: 'pull_request', sha: 'f'.repeat(40), pullRequest: { number: 7, baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40) } },
    baseline: report.baseline && {
      ...report.baseline,
      commit: 'c'.repeat(40),
      rejudged: { records: 300, judgedBefore: ['judge model=openai:judge-a template=closed_qa:0123456789abcdef parser=1'] },
    },
    candidate: { ...report.candidate, rejudged: { records: 300, judgedBefore: [] } },
    evidence: {
      run: 2,
      runs: [
        { run: 1, source: 'workflow run 12, attempt 1', records: 300, samples: { first: 0, last: 0 } },
        { run: 2, source: 'workflow run 12, attempt 2', records: 300, samples: { first: 1, last: 1 } },
      ],
      kept: true,
    },
  };
  return [fromAction, againstSummary];
}

/**
 * A run of more scenarios than get intervals, gated against its own metrics file: the report, and the
 * baseline's metrics, say how many scenarios have point estimates only.
 */
async function manyScenariosReport(): Promise<GateReport> {
  const records = Array.from({ length: MAX_INTERVAL_SCENARIOS + 1 }, (_, i) => ({ scenario: `s${i}`, id: '1', correct: i % 2 }));
  const table = buildTable(records, 'many.jsonl');
  const options = { resamples: 50, seed: 1, minGroupSize: 10 };
  const baseline: RunInput = { kind: 'metrics', file: 'many.json', report: computeMetrics(table, options) };
  const policy = parsePolicy(
    'version: 1\nname: many\nsettings:\n  resamples: 50\nchecks:\n  - metric: accuracy\n    min: 0.1\n',
    'many.yml',
  );
  return gateRun({ policy, candidate: { kind: 'records', file: 'many.jsonl', table }, baseline });
}

/** Runs whose records name the suite they were run from (provenance.suite_hash): each run's `suites`. */
async function suitesReport(): Promise<GateReport> {
  const provenance = { suite_hash: 'd'.repeat(64) };
  const records = (await readRecords('examples/billing/baseline.jsonl')).map((record) => ({ ...record, provenance }));
  const run = (file: string): RunInput => ({ kind: 'records', file, table: buildTable(records, file) });
  return gateRun({ policy: parsePolicy(POLICY, 'every-field.yml'), candidate: run('candidate.jsonl'), baseline: run('baseline.jsonl') });
}

/**
 * Runs with two samples of each example, noisy within them (instance i right with probability p_i, the
 * candidate's p_i +- 0.25): two underpowered checks, one that more samples per example would settle
 * (power.samplesNeeded) and one that only more instances would (power.samplesNote).
 */
async function samplesReport(): Promise<GateReport> {
  const random = new Random(3);
  const p = Array.from({ length: 800 }, () => 0.3 + 0.4 * random.nextFloat());
  // gateRun reads some records again by their lines (what changed): the runs are files.
  const run = (file: string, shift: () => number) => {
    const records = p.flatMap((probability, id) => {
      const shifted = probability + shift();
      return [0, 1].map((sample) => record({ scenario: 's', id: String(id), sample, correct: random.nextFloat() < shifted ? 1 : 0 }));
    });
    return loadRun(writeLines(file, records));
  };
  const baseline = await run('samples-baseline.jsonl', () => 0);
  const candidate = await run('samples-candidate.jsonl', () => (random.nextFloat() < 0.5 ? -0.25 : 0.25));
  const checks = [0.04, 0.02].map((detect) => `  - metric: accuracy\n    max_regression: 0\n    detect: ${detect}\n`).join('');
  const policy = parsePolicy(`version: 1\nname: samples\nsettings:\n  resamples: 400\nchecks:\n${checks}`, 'samples.yml');
  return gateRun({ policy, candidate, baseline });
}

describe('the JSON report and its schema', () => {
  it('keeps every field when written and read back, and the gate writes every field the schema knows', async () => {
    const present = new Set<string>();
    for (const report of [...(await fullReports()), await manyScenariosReport(), await suitesReport(), await samplesReport()]) {
      const written = JSON.stringify(report, null, 2);
      expect(parseGateReport(written, 'report.json')).toEqual(JSON.parse(written));
      for (const path of valuePaths(gateReportSchema, JSON.parse(written))) present.add(path);
    }
    expect([...present].filter((path) => path.endsWith('(not in the schema)'))).toEqual([]);
    // A field the schema knows that no report carries is a field the gate forgot to write (or one it no longer has).
    expect(schemaPaths(gateReportSchema).filter((path) => !present.has(path))).toEqual([]);
  });

  it('notices a field the builder writes that the schema does not know, and one the schema knows that no report has', async () => {
    const [report] = await fullReports();
    const extended = { ...report, checks: report.checks.map((check) => ({ ...check, confidence: 0.9 })) };
    const written = JSON.stringify(extended);
    expect(parseGateReport(written, 'report.json')).not.toEqual(JSON.parse(written)); // read back without it
    expect(valuePaths(gateReportSchema, JSON.parse(written))).toContain('.checks[].confidence (not in the schema)');
    const { changes: _left, ...withoutChanges } = report;
    const present = new Set(valuePaths(gateReportSchema, withoutChanges));
    expect(schemaPaths(gateReportSchema).filter((path) => !present.has(path))).toContain('.changes.scenarios[].broken[].baseline.line');
  });
});
