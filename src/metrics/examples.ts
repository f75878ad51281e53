import { float64, GrowableColumn, int32 } from './columns.js';

/*
 * The examples of a table being built: an instance's original, or one perturbation of it, numbered in
 * order of first appearance; and their samples (repeated generations), each of which may have one
 * record only. Linked lists in typed columns keep this to a few bytes a record: an instance's examples
 * (few: its perturbations) and an example's rows (its samples) are walked, nothing is hashed.
 */

/** What the metrics need to average an example's samples, for a table where some example has more than one. */
export interface RepeatedSamples {
  /** Per row: its example. */
  exampleOf: Int32Array;
  /** Per example: how many of its samples answered (no `error`), and how many of those have a `confidence`. */
  answered: Int32Array;
  calibrated: Int32Array;
  /** Per example: the mean `correct` over its answered samples (NaN when none answered). */
  meanCorrect: Float64Array;
}

/** What a table keeps of its examples: which rows are samples of which example, and where each row came from. */
export interface TableExamples {
  /** Per row: its example (an instance's original, or one perturbation of it), numbered in order of first appearance. */
  exampleOf: Int32Array;
  /** Per row: the line of its file (for a table built in memory, its position from 1). */
  lineOf: Int32Array;
  /** Per example: its perturbation, 0 for the original and k for the name `perturbations[k - 1]`. */
  perturbationOf: Int32Array;
  perturbations: string[];
}

export class ExampleIndex {
  /** Perturbation names, numbered from 1 (0 is the original). */
  private readonly perturbationNumber = new Map<string, number>();
  /** Per instance: its newest example; per example: the one before it of the same instance, and its perturbation. */
  private readonly newestExample = new GrowableColumn(int32, -1);
  private readonly previousExample = new GrowableColumn(int32, -1);
  private readonly perturbationOf = new GrowableColumn(int32, 0);
  /** Per example: its newest row; per row: its example, the row before it of the same example, its line and its sample. */
  private readonly newestRow = new GrowableColumn(int32, -1);
  private readonly exampleOfRow = new GrowableColumn(int32, -1);
  private readonly previousRow = new GrowableColumn(int32, -1);
  private readonly lineOf = new GrowableColumn(int32, 0);
  private readonly sampleOf = new GrowableColumn(float64, 0);
  /** Per instance: its perturbed examples; per example: its rows (samples). What the walks above cost, bounded by src/limits.ts. */
  private readonly perturbationCount = new GrowableColumn(int32, 0);
  private readonly sampleCount = new GrowableColumn(int32, 0);
  private count = 0;
  /** Whether some example has more than one record (sample). */
  repeated = false;

  /**
   * Room for about `rows` records, made once instead of doubling as they come: the columns per row, and
   * those per example and per instance (at most one of each a row).
   */
  expectRows(rows: number): void {
    for (const column of [
      this.exampleOfRow,
      this.lineOf,
      this.newestRow,
      this.perturbationOf,
      this.sampleCount,
      this.newestExample,
      this.previousExample,
    ]) {
      column.reserve(rows);
    }
  }

  /** The example of an instance's original (`perturbation` undefined) or of one of its perturbations, numbered if new. */
  exampleOf(instance: number, perturbation: string | undefined): number {
    let wanted = 0;
    if (perturbation !== undefined) {
      wanted = this.perturbationNumber.get(perturbation) ?? this.perturbationNumber.size + 1;
      if (wanted > this.perturbationNumber.size) this.perturbationNumber.set(perturbation, wanted);
    }
    for (let example = this.newestExample.get(instance); example >= 0; example = this.previousExample.get(example)) {
      if (this.perturbationOf.get(example) === wanted) return example;
    }
    const example = this.count++;
    if (wanted !== 0) this.perturbationCount.set(instance, this.perturbationCount.get(instance) + 1);
    this.previousExample.set(example, this.newestExample.get(instance));
    this.perturbationOf.set(example, wanted);
    this.newestExample.set(instance, example);
    return example;
  }

  /** How many perturbations of the instance have an example. */
  perturbationsOf(instance: number): number {
    return this.perturbationCount.get(instance);
  }

  /** How many records (samples) the example has. */
  samplesOf(example: number): number {
    return this.sampleCount.get(example);
  }

  /** The line of the record of this sample of the example, if there is one already. */
  lineOfSample(example: number, sample: number): number | undefined {
    for (let row = this.newestRow.get(example); row >= 0; row = this.previousRow.get(row)) {
      if (this.sampleOf.get(row) === sample) return this.lineOf.get(row);
    }
    return undefined;
  }

  /** Records that `row` (from `line` of its file) is this sample of the example. */
  addRow(row: number, example: number, sample: number, line: number): void {
    const before = this.newestRow.get(example);
    if (before >= 0) {
      this.repeated = true;
      this.previousRow.set(row, before);
    }
    this.newestRow.set(example, row);
    this.sampleCount.set(example, this.sampleCount.get(example) + 1);
    this.exampleOfRow.set(row, example);
    this.lineOf.set(row, line);
    if (sample !== 0) this.sampleOf.set(row, sample);
  }

  /** The examples of `size` rows: each row's example and line, each example's perturbation (0: the original), the perturbations' names. */
  examples(size: number): TableExamples {
    return {
      exampleOf: this.exampleOfRow.trimmed(size),
      lineOf: this.lineOf.trimmed(size),
      perturbationOf: this.perturbationOf.trimmed(this.count),
      perturbations: [...this.perturbationNumber.keys()],
    };
  }

  /** For a table with repeated samples (`exampleOf` from `examples`): per example its answered samples and their mean `correct`. */
  repeatedSamples(exampleOf: Int32Array, failed: Uint8Array, correct: Float64Array, confidence: Float64Array): RepeatedSamples {
    const size = exampleOf.length;
    const answered = new Int32Array(this.count);
    const calibrated = new Int32Array(this.count);
    const meanCorrect = new Float64Array(this.count);
    for (let row = 0; row < size; row++) {
      if (failed[row] !== 0) continue; // a failed call, or a completion its judge did not grade
      const example = exampleOf[row];
      answered[example]++;
      meanCorrect[example] += correct[row];
      if (!Number.isNaN(confidence[row])) calibrated[example]++;
    }
    for (let example = 0; example < this.count; example++) meanCorrect[example] /= answered[example]; // 0/0: NaN
    return { exampleOf, answered, calibrated, meanCorrect };
  }
}
