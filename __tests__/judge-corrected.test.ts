import { describe, expect, it } from '@jest/globals';
import { computeMetrics } from '../src/metrics/compute.js';
import { roganGladen } from '../src/metrics/statistics.js';
import { buildTable } from '../src/metrics/table.js';
import type { EvalRecord } from '../src/records/types.js';
import { gateRun } from '../src/pipeline/gate-run.js';
import { parsePolicy } from '../src/policy/load.js';
import { loadRun } from '../src/runs/load.js';
import { overallValues, writeLines } from './helpers/records.js';

/* judge_corrected_accuracy: the Rogan-Gladen correction of the judge's pass rate, on hand-worked sets. */

const JUDGE = 'judge model=openai:judge-a template=closed_qa:0123456789abcdef temperature=0 seed=0 max_tokens=512 parser=1';

/** `count` judged records with the verdict (and label), ids numbered from `prefix`. */
function judged(prefix: string, count: number, verdict: 'pass' | 'fail' | 'unknown', human?: number): EvalRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const base = {
      scenario: 's',
      id: `${prefix}${index}`,
      prediction: 'p',
      provenance: { scorer: JUDGE },
      ...(human === undefined ? {} : { human }),
    };
    if (verdict === 'unknown') return { ...base, judge: { verdict, raw: 'maybe', problem: 'not JSON' } } as EvalRecord;
    return { ...base, correct: verdict === 'pass' ? 1 : 0, judge: { verdict } } as EvalRecord;
  });
}

/**
 * Labelled right: 8 passed, 2 failed (tpr 0.8); labelled wrong: 9 failed, 1 passed (tnr 0.9); unlabelled:
 * 15 passed, 15 failed; an unknown verdict, which counts in no rate. The judge passed 24 of 50: p = 0.48.
 */
function labelledSet(unlabelledPasses = 15): EvalRecord[] {
  return [
    ...judged('rp', 8, 'pass', 1),
    ...judged('rf', 2, 'fail', 1),
    ...judged('wf', 9, 'fail', 0),
    ...judged('wp', 1, 'pass', 0),
    ...judged('up', unlabelledPasses, 'pass'),
    ...judged('uf', 30 - unlabelledPasses, 'fail'),
    ...judged('x', 1, 'unknown', 1),
  ];
}

describe('judge_corrected_accuracy (Rogan-Gladen)', () => {
  it('equals (p + tnr - 1) / (tpr + tnr - 1) worked by hand', () => {
    const values = overallValues(labelledSet());
    expect(values.judge_tpr).toBeCloseTo(0.8, 12);
    expect(values.judge_tnr).toBeCloseTo(0.9, 12);
    // (0.48 + 0.9 - 1) / (0.8 + 0.9 - 1) = 0.38 / 0.7
    expect(values.judge_corrected_accuracy).toBeCloseTo(0.38 / 0.7, 12);
    // The judge's raw pass rate, what accuracy reads off its verdicts, is lower: it misses right answers more often than it passes wrong ones.
    expect(values.accuracy).toBeCloseTo(24 / 50, 12);
  });

  it('is clipped to [0, 1], and undefined where the judge is no better than chance or a kind of label is missing', () => {
    // Every unlabelled answer passed: p = 39/50, (0.78 + 0.9 - 1) / 0.7 = 0.971...; one more pass on the labels clips.
    expect(overallValues(labelledSet(30)).judge_corrected_accuracy).toBeCloseTo((39 / 50 - 0.1) / 0.7, 12);
    expect(roganGladen(0.95, 0.8, 0.9)).toBe(1);
    expect(roganGladen(0.05, 0.8, 0.9)).toBe(0);
    expect(roganGladen(0.5, 0.5, 0.5)).toBeNaN();
    expect(roganGladen(0.5, 0.3, 0.6)).toBeNaN();
    // A judge that passes every right answer and every wrong one (tpr 1, tnr 0) tells nothing.
    const chance = [...judged('r', 5, 'pass', 1), ...judged('w', 5, 'pass', 0), ...judged('u', 5, 'fail')];
    expect(overallValues(chance)).not.toHaveProperty('judge_corrected_accuracy');
    // No record labelled wrong: no tnr, nothing to correct with.
    expect(overallValues([...judged('r', 5, 'pass', 1), ...judged('u', 5, 'fail')])).not.toHaveProperty('judge_corrected_accuracy');
  });

  it('has a bootstrap interval over instances around it, and none when too few labels leave it undefined in many resamples', () => {
    const report = computeMetrics(buildTable(labelledSet()), { resamples: 400, seed: 1, minGroupSize: 10 });
    const { value, ci, n } = report.overall.judge_corrected_accuracy;
    expect(n).toBe(50);
    expect(ci).not.toBeNull();
    const [low, high] = ci!;
    expect(low).toBeLessThan(value);
    expect(high).toBeGreaterThan(value);
    expect(low).toBeGreaterThanOrEqual(0);
    expect(high).toBeLessThanOrEqual(1);
    // One label of each kind: a resample without either (about 1 in 4 of 30 records drawn) has no correction.
    const few = [...judged('r', 1, 'pass', 1), ...judged('w', 1, 'fail', 0), ...judged('up', 14, 'pass'), ...judged('uf', 14, 'fail')];
    const sparse = computeMetrics(buildTable(few), { resamples: 400, seed: 1, minGroupSize: 10 }).overall.judge_corrected_accuracy;
    expect(sparse.value).toBeCloseTo(0.5, 12);
    expect(sparse.ci).toBeNull();
  });

  it('in bounds: strict, passes a bound on enough labels, never on labels too few to tell', async () => {
    const policy = parsePolicy(
      'version: 1\nname: corrected\nsettings:\n  bounds: strict\nchecks:\n  - metric: judge_corrected_accuracy\n    min: 0.2\n',
      'p.yml',
    );
    const statusOf = async (records: EvalRecord[]) => {
      const report = await gateRun({ policy, candidate: await loadRun(writeLines('run.jsonl', records)) });
      return report.checks.find((check) => check.metric === 'judge_corrected_accuracy')!.status;
    };
    expect(await statusOf(labelledSet())).toBe('pass');
    const few = [...judged('r', 1, 'pass', 1), ...judged('w', 1, 'fail', 0), ...judged('up', 14, 'pass'), ...judged('uf', 14, 'fail')];
    expect(await statusOf(few)).not.toBe('pass');
  });
});
