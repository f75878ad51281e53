import { instanceKeyOf, instanceMatch, KIND_ORIGINAL, type RecordTable } from '../metrics/table.js';
import type { Policy } from '../policy/schema.js';
import { describeKey } from '../records/key.js';
import type { RunInput } from '../runs/load.js';
import type { CoverageResult } from './types.js';

/*
 * Coverage (settings.coverage): a candidate that answered fewer of the baseline's samples than the
 * policy asks (missing instances, or failed calls: an incomplete run, a forgotten shard, a changed
 * suite) warns, or fails. It is counted per sample of each instance's original: an instance of five
 * samples of which one answered covers 1/5 of it, so that failed samples cannot hide behind one that
 * answered. A candidate covers at most as many samples of an instance as the baseline has; without
 * repeated samples, samples are instances.
 */

const MISSING_SHOWN = 5;

/** Per instance: its original's records (samples), and how many of them answered (no failed call). */
function originalSamples(table: RecordTable): { samples: Int32Array; answered: Int32Array } {
  const samples = new Int32Array(table.instanceCount);
  const answered = new Int32Array(table.instanceCount);
  for (let row = 0; row < table.size; row++) {
    if (table.kind[row] !== KIND_ORIGINAL) continue;
    samples[table.instanceOf[row]]++;
    if (table.failed[row] === 0) answered[table.instanceOf[row]]++;
  }
  return { samples, answered };
}

interface Covered {
  /** The baseline's original samples, and those the candidate answered (at most the baseline's of each instance). */
  baselineSamples: number;
  coveredSamples: number;
  /** The baseline's instances with at least one answered sample in the candidate, and those with some but not all. */
  covered: number;
  partly: number;
  /** The baseline's instances the candidate did not answer at all, in the baseline's order. */
  missing: number[];
}

function coveredSamples(candidate: RecordTable, baseline: RecordTable): Covered {
  const answered = originalSamples(candidate).answered;
  const asked = originalSamples(baseline).samples;
  const match = instanceMatch(candidate, baseline);
  const inCandidate = new Int32Array(baseline.instanceCount);
  for (let instance = 0; instance < match.length; instance++) if (match[instance] >= 0) inCandidate[match[instance]] = answered[instance];
  const found: Covered = { baselineSamples: 0, coveredSamples: 0, covered: 0, partly: 0, missing: [] };
  for (let instance = 0; instance < baseline.instanceCount; instance++) {
    // An instance whose original the baseline lacks (only variants) still asks for one answer.
    const wanted = Math.max(1, asked[instance]);
    const got = Math.min(inCandidate[instance], wanted);
    found.baselineSamples += wanted;
    found.coveredSamples += got;
    if (got === 0) found.missing.push(instance);
    else found.covered++;
    if (got > 0 && got < wanted) found.partly++;
  }
  return found;
}

const percent = (share: number) => `${+(share * 100).toFixed(1)}%`;

/** What was answered: in instances without repeated samples (as before samples were counted), else in samples and instances. */
function answeredText(found: Covered, baselineInstances: number): string {
  const { baselineSamples, coveredSamples, covered, partly } = found;
  if (baselineSamples === baselineInstances) {
    return `the candidate answered ${covered} of the baseline's ${baselineInstances} instances (${percent(covered / baselineInstances)}`;
  }
  const partlyText = partly > 0 ? `, ${partly} of them only in part` : '';
  return (
    `the candidate answered ${coveredSamples} of the baseline's ${baselineSamples} samples (${percent(coveredSamples / baselineSamples)}; ` +
    `at least one sample of ${covered} of its ${baselineInstances} instances${partlyText}`
  );
}

/** The candidate's coverage of the baseline's samples (and instances), when both are records files. */
export function coverageOf(
  candidate: RunInput,
  baseline: RunInput | undefined,
  setting: Policy['settings']['coverage'],
): CoverageResult | undefined {
  if (setting.severity === 'off' || candidate.kind !== 'records' || baseline?.kind !== 'records') return undefined;
  const found = coveredSamples(candidate.table, baseline.table);
  const { missing, baselineSamples } = found;
  // In whole samples: 0.07 x 100 is 7.000000000000001 in floating point, and 7 must be enough.
  const enough = found.coveredSamples >= Math.ceil(setting.min * baselineSamples - 1e-9);
  const shown = missing.slice(0, MISSING_SHOWN).map((instance) => describeKey(instanceKeyOf(baseline.table, instance)));
  const more = missing.length > MISSING_SHOWN ? ` and ${missing.length - MISSING_SHOWN} more` : '';
  return {
    status: enough ? 'pass' : setting.severity === 'block' ? 'fail' : 'warn',
    baselineInstances: baseline.table.instanceCount,
    covered: found.covered,
    baselineSamples,
    coveredSamples: found.coveredSamples,
    min: setting.min,
    missing: shown,
    reason:
      answeredText(found, baseline.table.instanceCount) +
      `${enough ? '' : `, the policy asks at least ${percent(setting.min)}`})${missing.length > 0 ? `; missing or failed: ${shown.join(', ')}${more}` : ''}`,
  };
}
