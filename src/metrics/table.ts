import { duplicateExample, exampleKey, exampleOf, instanceKey } from '../records/key.js';
import type { EvalRecord } from '../records/types.js';
import { float64, GrowableColumn, int32, uint8 } from './columns.js';
import { ExampleIndex, type RepeatedSamples, type TableExamples } from './examples.js';

/*
 * A column store of the records, holding only what the metrics read (no prompt or completion text),
 * so that millions of records fit in a few hundred megabytes. Absent numbers are NaN.
 */

export const KIND_ORIGINAL = 0;
export const KIND_ROBUSTNESS = 1;
export const KIND_FAIRNESS = 2;

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
  /** Each row's example and line, each example's perturbation: what comparing two runs example by example needs. */
  examples: TableExamples;
  /** Only when some example (an instance's original or one perturbation of it) has several samples: what averaging them needs. */
  samples?: RepeatedSamples;
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
  private readonly examples = new ExampleIndex();

  /** `name` stands for the file the records come from, in errors. */
  constructor(private readonly name = 'records') {}

  /**
   * Adds a record (from `line` of its file). A second record of the same sample of the same example
   * (scenario, id, perturbation, sample) is an InputError at its line: the metrics would count it twice.
   */
  add(record: EvalRecord, line = this.size + 1): void {
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
    const example = this.examples.exampleOf(instance, record.perturbation?.name);
    const sample = record.sample ?? 0;
    const earlier = this.examples.lineOfSample(example, sample);
    if (earlier !== undefined) throw duplicateExample(this.name, line, exampleKey(exampleOf(record)), earlier);
    const row = this.size++;
    this.examples.addRow(row, example, sample, line);
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
  }

  build(): RecordTable {
    const size = this.size;
    const groups = new Map<string, GroupColumn>();
    for (const [attribute, column] of this.groupColumns) {
      groups.set(attribute, { values: [...column.values.keys()], valueOf: column.valueOf.trimmed(size) });
    }
    const failed = this.failed.trimmed(size);
    const correct = this.correct.trimmed(size);
    const confidence = this.confidence.trimmed(size);
    const examples = this.examples.examples(size);
    return {
      size,
      scenarios: [...this.scenarioIndex.keys()],
      instanceKeys: this.instanceKeys,
      scenarioOf: this.scenarioOf.trimmed(size),
      instanceOf: this.instanceOf.trimmed(size),
      kind: this.kind.trimmed(size),
      failed,
      correct,
      confidence,
      latencyMs: this.latencyMs.trimmed(size),
      outputTokens: this.outputTokens.trimmed(size),
      costUsd: this.costUsd.trimmed(size),
      toxicity: this.toxicity.trimmed(size),
      groups,
      examples,
      ...(this.examples.repeated ? { samples: this.examples.repeatedSamples(examples.exampleOf, failed, correct, confidence) } : {}),
      orderings: new Map(),
    };
  }
}

/** A table of records in memory (tests, imports); `name` stands for the file in errors, the record's position for its line. */
export function buildTable(records: Iterable<EvalRecord>, name = 'records'): RecordTable {
  const builder = new RecordTableBuilder(name);
  let line = 0;
  for (const record of records) builder.add(record, ++line);
  return builder.build();
}
