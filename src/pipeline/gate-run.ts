import { computeOptionsOf, MetricsMemo } from '../gate/compare.js';
import { baselineOptionsOf, compareAhead, evaluateGate, gatedScopes } from '../gate/evaluate.js';
import type { MissingBaseline } from '../gate/not-compared.js';
import type { LoadedPolicy } from '../policy/load.js';
import type { InstanceChangesReport } from '../report/changes.js';
import { buildGateReport, type GateReport } from '../report/json.js';
import type { RunInput } from '../runs/load.js';
import { changesBetween } from './instance-changes.js';
import { MetricsThread, type MetricsThreads } from './metrics-thread.js';

/*
 * The use case the CLI's gate, compare and demo and the action share: a candidate gated under a
 * policy, against a baseline if there is one, and the report of it, with what changed instance by
 * instance when both runs are records files.
 */

export interface GateRunInputs {
  policy: LoadedPolicy;
  candidate: RunInput;
  baseline?: RunInput;
  /** Without a baseline: regression budgets skipped (by default), or inconclusive (a change gated: the action on a pull request). */
  missingBaseline?: MissingBaseline;
}

type ChangesOf = (candidate: RunInput, baseline: RunInput | undefined) => Promise<InstanceChangesReport | null>;

/**
 * The report of one gate; `memo` keeps metrics computed for runs that several gates share, and
 * `changesOf` may keep the instance changes of a candidate that several policies gate (they do not depend on the policy).
 */
export async function gateRun(
  { policy, candidate, baseline, missingBaseline }: GateRunInputs,
  memo = new MetricsMemo(),
  changesOf: ChangesOf = changesBetween,
): Promise<GateReport> {
  // While the candidate's metrics are computed in a thread (candidateMetricsInThread), this one compares.
  if (baseline) compareAhead(policy.policy, candidate, baseline, memo);
  // Read meanwhile: the changed examples' texts (their files' lines), while waiting for the thread.
  const changes = changesOf(candidate, baseline);
  changes.catch(() => undefined); // waited for below, after the metrics
  await memo.settled();
  const result = evaluateGate({ policy: policy.policy, candidate, baseline, missingBaseline }, memo);
  return buildGateReport(result, policy, candidate, baseline, await changes);
}

/**
 * Starts computing the candidate's metrics as a gate of `policy` reads them (every scope, the checks'
 * with their resampled values) in a second thread, when `threads` and the run's size call for one; the
 * memo adopts them before the gate reads them (gateRun). Call it as soon as the candidate is read, with
 * the thread started `ahead` of reading it if there is one. The thread, when one started, can be given
 * more (baselineMetricsInThread).
 */
export function candidateMetricsInThread(
  policy: LoadedPolicy,
  candidate: RunInput,
  memo: MetricsMemo,
  threads: MetricsThreads,
  ahead?: MetricsThread,
): MetricsThread | undefined {
  if (candidate.kind !== 'records') {
    ahead?.end();
    return undefined;
  }
  const options = computeOptionsOf(policy.policy);
  // The pooled scope too: the built-in checks, added at the gate, read it.
  const named = [undefined, ...gatedScopes(policy.policy)];
  const started = MetricsThread.start(candidate.table, { options, named }, threads, ahead);
  if (started) memo.computedElsewhere(candidate, options, started.scopes);
  return started?.thread;
}

/**
 * Gives the thread computing the candidate's metrics the baseline's point estimates (what the report
 * shows beside the candidate's) to compute next: that thread is done before this one has compared.
 */
export function baselineMetricsInThread(
  policy: LoadedPolicy,
  baseline: RunInput | undefined,
  memo: MetricsMemo,
  thread: MetricsThread,
): void {
  if (baseline?.kind !== 'records') return;
  const options = baselineOptionsOf(policy.policy);
  memo.computedElsewhere(baseline, options, thread.queue(baseline.table, { options, named: [] }));
}

export interface NamedRun {
  name: string;
  run: RunInput;
}

/** Every candidate under every policy, against one baseline: the cells of a decision matrix. */
export async function gateAll(
  policies: LoadedPolicy[],
  candidates: NamedRun[],
  baseline: RunInput | undefined,
): Promise<Array<{ policy: string; candidate: string; report: GateReport }>> {
  const memo = new MetricsMemo();
  const changes = new Map<RunInput, Promise<InstanceChangesReport | null>>();
  const changesOf: ChangesOf = (run) => {
    if (!changes.has(run)) changes.set(run, changesBetween(run, baseline));
    return changes.get(run)!;
  };
  const cells = [];
  for (const policy of policies) {
    for (const { name, run } of candidates) {
      cells.push({
        policy: policy.policy.name,
        candidate: name,
        report: await gateRun({ policy, candidate: run, baseline }, memo, changesOf),
      });
    }
  }
  return cells;
}
