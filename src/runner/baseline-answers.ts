import { exampleKey, exampleOf } from '../records/key.js';
import { forEachRecord } from '../records/read.js';
import type { EvalRecord } from '../records/types.js';
import type { LoadedSuite } from './suite.js';

/*
 * The baseline's completions that pairwise judging compares the candidate's with (`judge_pairwise:
 * baseline`, `evalgate run --baseline-records`): one per example and sample of the pairwise scenarios,
 * from the baseline's records file. Only the text and what the record answered are kept.
 */

interface StoredAnswer {
  prediction: string;
  inputHash?: string;
  referencesHash?: string;
}

export class BaselineAnswers {
  private constructor(private readonly answers: Map<string, StoredAnswer>) {}

  /** The baseline's completions of the suite's pairwise scenarios in `file` (its failed calls have none). */
  static async read(file: string, loaded: LoadedSuite): Promise<BaselineAnswers> {
    const pairwise = new Set(
      loaded.suite.scenarios.filter((scenario) => scenario.scorer_options.judge_pairwise !== undefined).map(({ name }) => name),
    );
    const answers = new Map<string, StoredAnswer>();
    await forEachRecord(file, (record) => {
      if (!pairwise.has(record.scenario) || record.error !== undefined || typeof record.prediction !== 'string') return;
      const { input_hash: inputHash, references_hash: referencesHash } = record.provenance ?? {};
      answers.set(exampleKey(exampleOf(record)), {
        prediction: record.prediction,
        ...(inputHash ? { inputHash } : {}),
        ...(referencesHash ? { referencesHash } : {}),
      });
    });
    return new BaselineAnswers(answers);
  }

  /**
   * The baseline's completion of a record's example and sample; else why there is none to compare with:
   * "none" when the baseline has none, "changed" when the two records answered different questions
   * (their provenance differs).
   */
  answerFor(record: EvalRecord): { answer: string } | { missing: 'none' | 'changed' } {
    const stored = this.answers.get(exampleKey(exampleOf(record)));
    if (!stored) return { missing: 'none' };
    const differs = (ours: string | undefined, theirs: string | undefined) => ours !== undefined && theirs !== undefined && ours !== theirs;
    if (differs(record.provenance?.input_hash, stored.inputHash) || differs(record.provenance?.references_hash, stored.referencesHash)) {
      return { missing: 'changed' };
    }
    return { answer: stored.prediction };
  }
}
