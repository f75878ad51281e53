import { MetricsMemo } from '../gate/compare.js';
import { evaluateGate } from '../gate/evaluate.js';
import type { LoadedPolicy } from '../policy/load.js';
import { buildGateReport, type GateReport } from '../report/json.js';
import type { RunInput } from '../runs/load.js';

/*
 * The use case the CLI's gate, compare and demo and the action share: a candidate gated under a
 * policy, against a baseline if there is one, and the report of it.
 */

export interface GateRunInputs {
  policy: LoadedPolicy;
  candidate: RunInput;
  baseline?: RunInput;
}

/** The report of one gate; `memo` keeps metrics computed for runs that several gates share. */
export function gateRun({ policy, candidate, baseline }: GateRunInputs, memo = new MetricsMemo()): GateReport {
  const result = evaluateGate({ policy: policy.policy, candidate, baseline }, memo);
  return buildGateReport(result, policy, candidate, baseline);
}

export interface NamedRun {
  name: string;
  run: RunInput;
}

/** Every candidate under every policy, against one baseline: the cells of a decision matrix. */
export function gateAll(
  policies: LoadedPolicy[],
  candidates: NamedRun[],
  baseline: RunInput | undefined,
): Array<{ policy: string; candidate: string; report: GateReport }> {
  const memo = new MetricsMemo();
  return policies.flatMap((policy) =>
    candidates.map(({ name, run }) => ({
      policy: policy.policy.name,
      candidate: name,
      report: gateRun({ policy, candidate: run, baseline }, memo),
    })),
  );
}
