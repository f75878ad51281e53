import type { Provenance } from './provenance.js';

export type { Provenance } from './provenance.js';

/**
 * The per-example record: the contract between running an evaluation and scoring it.
 * One JSON object per line (JSON Lines), one evaluated example per line.
 */

export type PerturbationKind = 'robustness' | 'fairness';

export const PERTURBATION_KINDS: readonly PerturbationKind[] = ['robustness', 'fairness'];

export interface Perturbation {
  name: string;
  kind: PerturbationKind;
}

/** A judge's verdict on a record (docs/record-format.md#judged-records). */
export interface JudgeVerdict {
  verdict: 'pass' | 'fail' | 'unknown';
  score?: number;
  reason?: string;
  /** An unknown verdict's reply, as the judge wrote it, and why it was not read. */
  raw?: string;
  problem?: string;
  /** The judge call's own tokens and cost, apart from the model under test's (all K calls' with judge_samples). */
  input_tokens?: number;
  output_tokens?: number;
  cost_usd?: number;
  /** With `judge_samples` K > 1: each of the K verdicts, in the order asked; the record's verdict is their majority (or mean). */
  samples?: JudgeSample[];
}

/** One of a judge's K verdicts on a completion: as JudgeVerdict's, or `error` when that call failed (verdict "unknown"). */
export interface JudgeSample {
  verdict: 'pass' | 'fail' | 'unknown';
  score?: number;
  reason?: string;
  raw?: string;
  problem?: string;
  error?: string;
}

export const JUDGE_VERDICTS: ReadonlyArray<JudgeVerdict['verdict']> = ['pass', 'fail', 'unknown'];

/** One order's verdict of a pairwise comparison: "A" the answer shown first, "B" the other; or why there is none. */
export interface PairwiseOrderVerdict {
  verdict: 'A' | 'B' | 'tie' | 'unknown';
  reason?: string;
  raw?: string;
  problem?: string;
  /** The call failed (verdict "unknown"). */
  error?: string;
}

/** A pairwise comparison of the candidate's completion with the baseline's, asked in both orders (docs/record-format.md#pairwise-judged-records). */
export interface JudgePairwise {
  /** What it comes to for the candidate; a verdict that changed with the order is a tie. Unknown when either order gave none. */
  outcome: 'win' | 'loss' | 'tie' | 'unknown';
  /** Whether the two orders disagreed (then the outcome is "tie"); absent when either gave no verdict. */
  flipped?: boolean;
  candidate_first: PairwiseOrderVerdict;
  baseline_first: PairwiseOrderVerdict;
  /** With the length-bias probe: which completion is longer, in characters. */
  longer?: 'candidate' | 'baseline' | 'same';
  /** The pairwise judge's fingerprint: its model, the model served, the template's hash, decoding, parser. */
  fingerprint?: string;
  /** Both calls' tokens and cost, apart from the model under test's. */
  input_tokens?: number;
  output_tokens?: number;
  cost_usd?: number;
}

export const PAIRWISE_OUTCOMES: ReadonlyArray<JudgePairwise['outcome']> = ['win', 'loss', 'tie', 'unknown'];
export const PAIRWISE_VERDICTS: ReadonlyArray<PairwiseOrderVerdict['verdict']> = ['A', 'B', 'tie', 'unknown'];

export interface EvalRecord {
  /** Scenario (task) the example belongs to. */
  scenario: string;
  /** Instance id; perturbed variants of an instance share it. */
  id: string;
  /** Absent on the original example. */
  perturbation?: Perturbation;
  /**
   * Which of the repeated generations of the same example this is (0-based), for models asked several
   * times (temperature > 0). Absent means sample 0.
   */
  sample?: number;
  /** 1 right, 0 wrong, fractions for partial credit. Absent exactly when `error` is set. */
  correct?: number;
  /** The model's probability for the answer it gave. */
  confidence?: number;
  /** Attribute -> value, e.g. {"dialect": "aae"}. */
  groups?: Record<string, string>;
  latency_ms?: number;
  input_tokens?: number;
  output_tokens?: number;
  cost_usd?: number;
  toxicity?: number;
  input?: unknown;
  prediction?: string;
  references?: string | string[];
  /** The call failed; such a record carries no `correct`. */
  error?: string;
  /** What a judge said of the completion (the judge scorer): its verdict, or "unknown" with its raw reply. */
  judge?: JudgeVerdict;
  /** The judge's call failed (the judge's failure, not the model's): no `correct`. */
  judge_error?: string;
  /** The judge's comparison of this completion with the baseline's for the same example (`judge_pairwise: baseline`). */
  judge_pairwise?: JudgePairwise;
  /** A person's grade of the instance (1 right, 0 wrong, or a score in [0, 1]): the judge's agreement is measured on it. */
  human?: number;
  /** What the record answered: hashes of its instance's own fields (records/provenance.ts). */
  provenance?: Provenance;
  /** Unknown extra fields are kept and ignored. */
  [extra: string]: unknown;
}
