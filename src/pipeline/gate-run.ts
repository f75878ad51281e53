import { computeOptionsOf, MetricsMemo } from '../gate/compare.js';
import type { Policy } from '../policy/schema.js';
import { evaluateGate } from '../gate/evaluate.js';
import type { MissingBaseline } from '../gate/not-compared.js';
import type { LoadedPolicy } from '../policy/load.js';
import type { InstanceChangesReport } from '../report/changes.js';
import { buildGateReport, type GateReport } from '../report/json.js';
import type { RunInput } from '../runs/load.js';
import { changesBetween } from './instance-changes.js';
import type { PendingScopes } from './parallel-scopes.js';

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
  /** The candidate's scopes being computed in another thread (pipeline/parallel-scopes.ts: gateScopesInThread). */
  candidateScopes?: PendingScopes;
}

type ChangesOf = (candidate: RunInput, baseline: RunInput | undefined) => Promise<InstanceChangesReport | null>;

/**
 * The report of one gate; `memo` keeps metrics computed for runs that several gates share, and
 * `changesOf` may keep the instance changes of a candidate that several policies gate (they do not depend on the policy).
 */
export async function gateRun(
  { policy, candidate, baseline, missingBaseline, candidateScopes }: GateRunInputs,
  memo = new MetricsMemo(),
  changesOf: ChangesOf = changesBetween,
): Promise<GateReport> {
  // With the candidate's scopes computed in another thread, this one compares the runs and finds the changes meanwhile.
  let changes: Promise<InstanceChangesReport | null> | undefined;
  if (candidateScopes) {
    compareAhead(policy.policy, candidate, baseline, memo);
    changes = changesOf(candidate, baseline);
    await adoptScopes(policy.policy, candidate, memo, candidateScopes, changes);
  }
  const result = evaluateGate({ policy: policy.policy, candidate, baseline, missingBaseline }, memo);
  return buildGateReport(result, policy, candidate, baseline, await (changes ?? changesOf(candidate, baseline)));
}

/** The paired comparisons of the policy's regression checks, made now and kept for the gate (metrics/paired.ts). */
function compareAhead(policy: Policy, candidate: RunInput, baseline: RunInput | undefined, memo: MetricsMemo): void {
  if (candidate.kind !== 'records' || baseline?.kind !== 'records') return;
  const paired = memo.pairedRuns(candidate, baseline, computeOptionsOf(policy));
  for (const check of policy.checks) {
    if (check.severity !== 'off' && check.max_regression !== undefined) paired.compare(check.metric, check.scenario);
  }
}

/** The candidate's scopes from another thread (pipeline/parallel-scopes.ts), adopted once they and the changes are ready. */
async function adoptScopes(
  policy: Policy,
  candidate: RunInput,
  memo: MetricsMemo,
  candidateScopes: PendingScopes,
  changes: Promise<unknown>,
): Promise<void> {
  await changes.catch(() => undefined); // its error is thrown where the report awaits it
  const entries = await candidateScopes.scopes();
  if (entries && candidate.kind === 'records') memo.adoptScopes(candidate, computeOptionsOf(policy), entries);
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
