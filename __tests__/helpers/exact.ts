import { evaluateChecks } from '../../src/gate/checks.js';
import { evaluateGate } from '../../src/gate/evaluate.js';
import type { CheckResult, GateResult } from '../../src/gate/types.js';
import type { MetricsReport } from '../../src/metrics/compute.js';
import { buildTable } from '../../src/metrics/table.js';
import { parsePolicy } from '../../src/policy/load.js';
import type { Policy } from '../../src/policy/schema.js';
import type { EvalRecord } from '../../src/records/types.js';
import type { RunInput } from '../../src/runs/load.js';

/*
 * Inputs whose every bootstrap value is known in advance, for tests that pin the decision exactly: a
 * run whose instances all score the same has that mean on every resample, so two such runs differ by
 * the same amount on every resample; and hand-made resampled values for a bound's test.
 */

/**
 * A records run whose table is built from `records` when first read: in the test that reads it, not
 * while jest collects the tests (a table made there runs for every mutant of a mutation run, whichever
 * tests it selects).
 */
export function recordsRun(file: string, records: () => EvalRecord[]): RunInput {
  let table: ReturnType<typeof buildTable> | undefined;
  return {
    kind: 'records',
    file,
    get table() {
      return (table ??= buildTable(records()));
    },
  };
}

/** `n` instances in each scenario, every one scoring `correct` (exact in binary: 0.25, 0.5, 0.75, 1). */
export function constantRun(n: number, correct: number | Record<string, number>, scenarios = ['s']): RunInput {
  return recordsRun('run.jsonl', () =>
    scenarios.flatMap((scenario) =>
      Array.from(
        { length: n },
        (_, i) => ({ scenario, id: String(i), correct: typeof correct === 'number' ? correct : correct[scenario] }) as EvalRecord,
      ),
    ),
  );
}

/**
 * A validated policy from the lines after `version` and `name`, then given `resamples` if stated: fewer
 * than its validation accepts when it counts the built-in failure-rate test, which runs without failed
 * calls never add, or fewer than any test needs, to see what the gate does with them.
 */
export function policyOf(yaml: string, resamples?: number): Policy {
  const { policy } = parsePolicy(`version: 1\nname: exact\n${yaml}`, 'policy.yml');
  return resamples === undefined ? policy : { ...policy, settings: { ...policy.settings, resamples } };
}

export function gateOf(yaml: string, candidate: RunInput, baseline?: RunInput, resamples?: number): GateResult {
  return evaluateGate({ policy: policyOf(yaml, resamples), candidate, baseline });
}

/** The first check's status and reasons: what a reader of the report sees. */
export const seen = (result: GateResult | CheckResult[] | CheckResult) => {
  const check = Array.isArray(result) ? result[0] : 'checks' in result ? result.checks[0] : result;
  return { status: check.status, reasons: check.reasons };
};

/**
 * `count` resampled values: `against` of them equal to `other`, the rest to `value`; a bound's p-value
 * over them is (against + 1) / (count + 1) when `other` is on the wrong side of the bound.
 */
export function resampled(count: number, value: number, against = 0, other = value): Float64Array {
  return Float64Array.from({ length: count }, (_, index) => (index < against ? other : value));
}

/**
 * The checks of `yaml` judged on hand-made candidate values: each scenario's accuracy (value and
 * interval) and, if given, its resampled values. No baseline.
 */
export function checkBounds(
  yaml: string,
  values: Record<string, { value: number; ci: [number, number] | null; samples?: Float64Array }>,
): CheckResult[] {
  const scenarios = Object.fromEntries(
    Object.entries(values).map(([scenario, { value, ci }]) => [scenario, { accuracy: { value, ci, n: 100 } }]),
  );
  const candidateMetrics: MetricsReport = { overall: {}, scenarios };
  const samples = Object.fromEntries(
    Object.entries(values).flatMap(([scenario, { samples }]) => (samples ? [[scenario, { accuracy: samples }]] : [])),
  );
  return evaluateChecks({
    policy: policyOf(yaml),
    candidateMetrics,
    candidateSamples: { overall: {}, scenarios: samples },
    comparer: undefined,
    relaxed: new Map(),
  });
}
