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
  /** What the record answered: hashes of its instance's own fields (records/provenance.ts). */
  provenance?: Provenance;
  /** Unknown extra fields are kept and ignored. */
  [extra: string]: unknown;
}
