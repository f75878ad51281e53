import { instanceKey } from '../records/key.js';
import type { EvalRecord } from '../records/types.js';

/*
 * A column store of the records, holding only what the metrics read (no prompt or completion text),
 * so that millions of records fit in a few hundred megabytes. Absent numbers are NaN.
 */

export const KIND_ORIGINAL = 0;
export const KIND_ROBUSTNESS = 1;
export const KIND_FAIRNESS = 2;

class GrowableColumn<T extends Float64Array | Int32Array | Uint8Array> {
  data: T;
  constructor(
    private readonly make: (size: number) => T,
    private readonly fill: number,
  ) {
    this.data = make(1024);
    this.data.fill(fill);
  }
  private reserve(length: number): void {
    if (length <= this.data.length) return;
    const grown = this.make(Math.max(length, this.data.length * 2));
    grown.fill(this.fill, this.data.length);
    grown.set(this.data);
    this.data = grown;
  }
  get(index: number): number {
    return index < this.data.length ? this.data[index] : this.fill;
  }
  set(index: number, value: number): void {
    this.reserve(index + 1);
    this.data[index] = value;
  }
  /** A copy of the first `length` entries; a column that started late reads as its fill value before that. */
  trimmed(length: number): T {
    this.reserve(length);
    return this.data.slice(0, length) as T;
  }
}

const float64 = (size: number): Float64Array => new Float64Array(size);
const int32 = (size: number): Int32Array => new Int32Array(size);
const uint8 = (size: number): Uint8Array => new Uint8Array(size);

/** Values of one `groups` attribute: a value index per record (-1: the record has no value). */
export interface GroupColumn {
  values: string[];
  valueOf: Int32Array;
}

/** Rows that have a value, by rank: rankOf[row] (-1 without a value) and its inverse. */
export interface RowOrder {
  rankOf: Int32Array;
  rowAtRank: Int32Array;
}

export interface RecordTable {
  size: number;
  scenarios: string[];
  /** Instance keys (records/key.ts), indexed by instance number. */
  instanceKeys: string[];
  scenarioOf: Int32Array;
  instanceOf: Int32Array;
  kind: Uint8Array;
  failed: Uint8Array;
  correct: Float64Array;
  confidence: Float64Array;
  latencyMs: Float64Array;
  outputTokens: Float64Array;
  costUsd: Float64Array;
  toxicity: Float64Array;
  groups: Map<string, GroupColumn>;
  /** Orderings of the rows by a column, filled in by the metrics as they need them. */
  orderings: Map<string, RowOrder>;
}

const optionalNumber = (value: unknown): number => (typeof value === 'number' ? value : NaN);

/** Collects validated records, in input order, into a RecordTable. */
export class RecordTableBuilder {
  private size = 0;
  private readonly scenarioIndex = new Map<string, number>();
  /** Per scenario: id -> instance number. */
  private readonly instanceIndex = new Map<string, Map<string, number>>();
  private readonly instanceKeys: string[] = [];
  private readonly scenarioOf = new GrowableColumn(int32, 0);
  private readonly instanceOf = new GrowableColumn(int32, 0);
  private readonly kind = new GrowableColumn(uint8, 0);
  private readonly failed = new GrowableColumn(uint8, 0);
  private readonly correct = new GrowableColumn(float64, NaN);
  private readonly confidence = new GrowableColumn(float64, NaN);
  private readonly latencyMs = new GrowableColumn(float64, NaN);
  private readonly outputTokens = new GrowableColumn(float64, NaN);
  private readonly costUsd = new GrowableColumn(float64, NaN);
  private readonly toxicity = new GrowableColumn(float64, NaN);
  private readonly groupColumns = new Map<string, { values: Map<string, number>; valueOf: GrowableColumn<Int32Array> }>();

  /*
   * One record per example: each perturbation name gets a number (0 the original), each instance a
   * bit mask of the numbers seen (names past the 31st in a set), and each row its name and line, read
   * only to name the first record of a duplicate.
   */
  private readonly perturbationNumbers = new Map<string, number>([['', 0]]);
  private readonly seenMask = new GrowableColumn(int32, 0);
  private readonly seenBeyondMask = new Set<string>();
  private readonly exampleOf = new GrowableColumn(int32, 0);
  private readonly lineOf = new GrowableColumn(int32, 0);

  /**
   * Adds a record (from `line` of its file). Returns the line of an earlier record of the same example
   * (scenario, id, perturbation), which the record then does not replace: a duplicate is the caller's
   * error to report.
   */
  add(record: EvalRecord, line = this.size + 1): number | undefined {
    let scenario = this.scenarioIndex.get(record.scenario);
    let ids = this.instanceIndex.get(record.scenario);
    if (scenario === undefined || ids === undefined) {
      scenario = this.scenarioIndex.size;
      this.scenarioIndex.set(record.scenario, scenario);
      this.instanceIndex.set(record.scenario, (ids = new Map()));
    }
    let instance = ids.get(record.id);
    if (instance === undefined) {
      instance = this.instanceKeys.length;
      ids.set(record.id, instance);
      this.instanceKeys.push(instanceKey(record.scenario, record.id));
    }
    const example = this.perturbationNumber(record.perturbation?.name);
    if (this.seen(instance, example)) return this.lineOfExample(instance, example);
    const row = this.size++;
    this.exampleOf.set(row, example);
    this.lineOf.set(row, line);
    this.scenarioOf.set(row, scenario);
    this.instanceOf.set(row, instance);
    const perturbation = record.perturbation;
    this.kind.set(row, perturbation ? (perturbation.kind === 'robustness' ? KIND_ROBUSTNESS : KIND_FAIRNESS) : KIND_ORIGINAL);
    const failed = typeof record.error === 'string';
    this.failed.set(row, failed ? 1 : 0);
    if (!failed) this.correct.set(row, record.correct as number);
    this.confidence.set(row, optionalNumber(record.confidence));
    this.latencyMs.set(row, optionalNumber(record.latency_ms));
    this.outputTokens.set(row, optionalNumber(record.output_tokens));
    this.costUsd.set(row, optionalNumber(record.cost_usd));
    this.toxicity.set(row, optionalNumber(record.toxicity));
    const groups = record.groups;
    if (groups) {
      for (const attribute in groups) {
        const raw = groups[attribute] as unknown;
        if (raw === null || raw === undefined) continue;
        const value = String(raw);
        let column = this.groupColumns.get(attribute);
        if (!column) {
          column = { values: new Map(), valueOf: new GrowableColumn(int32, -1) };
          this.groupColumns.set(attribute, column);
        }
        let valueIndex = column.values.get(value);
        if (valueIndex === undefined) {
          valueIndex = column.values.size;
          column.values.set(value, valueIndex);
        }
        column.valueOf.set(row, valueIndex);
      }
    }
    return undefined;
  }

  private perturbationNumber(name: string | undefined): number {
    if (name === undefined) return 0;
    let number = this.perturbationNumbers.get(name);
    if (number === undefined) this.perturbationNumbers.set(name, (number = this.perturbationNumbers.size));
    return number;
  }

  /** Whether the instance already has this example; marks it seen if not. */
  private seen(instance: number, example: number): boolean {
    if (example >= 31) {
      const key = `${instance}:${example}`;
      if (this.seenBeyondMask.has(key)) return true;
      this.seenBeyondMask.add(key);
      return false;
    }
    const mask = this.seenMask.get(instance);
    if (mask & (1 << example)) return true;
    this.seenMask.set(instance, mask | (1 << example));
    return false;
  }

  /** The line of the record already added for an example (a pass over the rows: only on a duplicate). */
  private lineOfExample(instance: number, example: number): number {
    for (let row = 0; row < this.size; row++) {
      if (this.instanceOf.get(row) === instance && this.exampleOf.get(row) === example) return this.lineOf.get(row);
    }
    return 0;
  }

  build(): RecordTable {
    const size = this.size;
    const groups = new Map<string, GroupColumn>();
    for (const [attribute, column] of this.groupColumns) {
      groups.set(attribute, { values: [...column.values.keys()], valueOf: column.valueOf.trimmed(size) });
    }
    return {
      size,
      scenarios: [...this.scenarioIndex.keys()],
      instanceKeys: this.instanceKeys,
      scenarioOf: this.scenarioOf.trimmed(size),
      instanceOf: this.instanceOf.trimmed(size),
      kind: this.kind.trimmed(size),
      failed: this.failed.trimmed(size),
      correct: this.correct.trimmed(size),
      confidence: this.confidence.trimmed(size),
      latencyMs: this.latencyMs.trimmed(size),
      outputTokens: this.outputTokens.trimmed(size),
      costUsd: this.costUsd.trimmed(size),
      toxicity: this.toxicity.trimmed(size),
      groups,
      orderings: new Map(),
    };
  }
}

export function buildTable(records: Iterable<EvalRecord>): RecordTable {
  const builder = new RecordTableBuilder();
  for (const record of records) builder.add(record);
  return builder.build();
}
