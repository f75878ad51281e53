import type { EvalRecord } from '../../src/records/types.js';

/* Judged records for the tests of the judge's metrics (judge-metrics.test.ts) and of gates of judged runs (judge-gate.test.ts). */

export const JUDGE_A =
  'judge model=openai:judge-a served=judge-a template=closed_qa:0123456789abcdef temperature=0 seed=0 max_tokens=512 parser=1';
export const JUDGE_B =
  'judge model=openai:judge-b served=judge-b template=closed_qa:0123456789abcdef temperature=0 seed=0 max_tokens=512 parser=1';

/** A judged record: a verdict (or "unknown", or "error": a failed judge call), a label, a fingerprint. */
export function judged(
  id: string,
  verdict: 'pass' | 'fail' | 'unknown' | 'error',
  human?: number,
  scorer = JUDGE_A,
  scenario = 's',
): EvalRecord {
  const base = { scenario, id, prediction: 'p', provenance: { scorer }, ...(human === undefined ? {} : { human }) };
  if (verdict === 'error') return { ...base, judge_error: 'HTTP 500: judge overloaded' };
  if (verdict === 'unknown') return { ...base, judge: { verdict, raw: 'maybe', problem: 'not JSON' } };
  return { ...base, correct: verdict === 'pass' ? 1 : 0, judge: { verdict } };
}

/** A labelled set: right answers passed 4, failed 1; wrong answers failed 3, passed 2; and the unlabelled or ungraded. */
export function labelledSet(): EvalRecord[] {
  return [
    ...['a1', 'a2', 'a3', 'a4'].map((id) => judged(id, 'pass', 1)),
    judged('b1', 'fail', 0.9),
    ...['c1', 'c2', 'c3'].map((id) => judged(id, 'fail', 0)),
    ...['d1', 'd2'].map((id) => judged(id, 'pass', 0.2)),
    judged('u1', 'unknown', 1),
    judged('e1', 'error', 0),
    judged('n1', 'pass'),
  ];
}
