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
  /** The judge call's own tokens and cost, apart from the model under test's. */
  input_tokens?: number;
  output_tokens?: number;
  cost_usd?: number;
}

export const JUDGE_VERDICTS: ReadonlyArray<JudgeVerdict['verdict']> = ['pass', 'fail', 'unknown'];

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
  /** A person's grade of the instance (1 right, 0 wrong, or a score in [0, 1]): the judge's agreement is measured on it. */
  human?: number;
  /** What the record answered: hashes of its instance's own fields (records/provenance.ts). */
  provenance?: Provenance;
  /** Unknown extra fields are kept and ignored. */
  [extra: string]: unknown;
}
