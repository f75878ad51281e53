import { instanceKeyOf, instanceMatch, KIND_ORIGINAL, type RecordTable } from '../metrics/table.js';
import type { Policy } from '../policy/schema.js';
import { describeKey } from '../records/key.js';
import type { RunInput } from '../runs/load.js';
import type { CoverageResult } from './types.js';

/*
 * Coverage (settings.coverage): a candidate that answered fewer of the baseline's instances than the
 * policy asks (missing, or failed calls: an incomplete run, a forgotten shard, a changed suite) warns,
 * or fails.
 */

const MISSING_SHOWN = 5;

/**
 * Instances with an answered original record (not a perturbed variant, not a failed call): with
 * repeated samples, one answered sample of the original is enough.
 */
function answeredInstances(table: RecordTable): Uint8Array {
  const answered = new Uint8Array(table.instanceCount);
  for (let row = 0; row < table.size; row++) {
    if (table.kind[row] === KIND_ORIGINAL && table.failed[row] === 0) answered[table.instanceOf[row]] = 1;
  }
  return answered;
}

/** The baseline's instances the candidate did not answer, in the baseline's order. */
function missingInstances(candidate: RecordTable, baseline: RecordTable): number[] {
  const answered = answeredInstances(candidate);
  const match = instanceMatch(candidate, baseline);
  const covered = new Uint8Array(baseline.instanceCount);
  for (let instance = 0; instance < match.length; instance++) if (answered[instance] && match[instance] >= 0) covered[match[instance]] = 1;
  const missing = [];
  for (let instance = 0; instance < covered.length; instance++) if (!covered[instance]) missing.push(instance);
  return missing;
}

/** The candidate's coverage of the baseline's instances, when both are records files. */
export function coverageOf(
  candidate: RunInput,
  baseline: RunInput | undefined,
  setting: Policy['settings']['coverage'],
): CoverageResult | undefined {
  if (setting.severity === 'off' || candidate.kind !== 'records' || baseline?.kind !== 'records') return undefined;
  const missing = missingInstances(candidate.table, baseline.table);
  const baselineInstances = baseline.table.instanceCount;
  const covered = baselineInstances - missing.length;
  // In whole instances: 0.07 x 100 is 7.000000000000001 in floating point, and 7 must be enough.
  const enough = covered >= Math.ceil(setting.min * baselineInstances - 1e-9);
  const percent = (share: number) => `${+(share * 100).toFixed(1)}%`;
  const shown = missing.slice(0, MISSING_SHOWN).map((instance) => describeKey(instanceKeyOf(baseline.table, instance)));
  const more = missing.length > MISSING_SHOWN ? ` and ${missing.length - MISSING_SHOWN} more` : '';
  return {
    status: enough ? 'pass' : setting.severity === 'block' ? 'fail' : 'warn',
    baselineInstances,
    covered,
    min: setting.min,
    missing: shown,
    reason:
      `the candidate answered ${covered} of the baseline's ${baselineInstances} instances (${percent(covered / baselineInstances)}` +
      `${enough ? '' : `, the policy asks at least ${percent(setting.min)}`})${missing.length > 0 ? `; missing or failed: ${shown.join(', ')}${more}` : ''}`,
  };
}
