import { InputError } from '../errors.js';
import { MAX_GROUP_ATTRIBUTES, MAX_GROUPS, MAX_PERTURBATIONS_PER_INSTANCE, MAX_SAMPLES_PER_EXAMPLE, MAX_SCENARIOS } from '../limits.js';
import { FailureTally, type CommonFailure } from '../records/failures.js';
import { describeKey, duplicateExample, exampleKey, exampleOf, instanceKey } from '../records/key.js';
import type { EvalRecord } from '../records/types.js';
import { GrowableColumn, int32, RowColumns } from './columns.js';
import { InstanceIndex } from './instance-index.js';
import { ExampleIndex, type RepeatedSamples, type TableExamples } from './examples.js';
import { judgeProbesOf } from './judge-probes.js';
import { changedInstances, ProvenanceBuilder, type InstanceProvenance } from './provenance.js';

/*
 * A column store of the records, holding only what the metrics read (no prompt or completion text),
 * so that millions of records fit in a few hundred megabytes. Absent numbers are NaN.
 */

export const KIND_ORIGINAL = 0;
export const KIND_ROBUSTNESS = 1;
export const KIND_FAIRNESS = 2;

/** `failed`: 0 scored, FAILED_CALL the model's call failed (`error`), UNGRADED its judge gave no verdict (`judge_error`, unknown). */
export const FAILED_CALL = 1;
export const UNGRADED = 2;

/** `judge`: what a judge said of the row (0: not judged). */
export const JUDGE_PASS = 1;
export const JUDGE_FAIL = 2;
export const JUDGE_UNKNOWN = 3;
export const JUDGE_ERROR = 4;

const JUDGE_CODES: Record<string, number> = { pass: JUDGE_PASS, fail: JUDGE_FAIL, unknown: JUDGE_UNKNOWN };

/** Values of one `groups` attribute: a value index per record (-1: the record has no value). */
export interface GroupColumn {
  values: string[];
  valueOf: Int32Array;
  /** One number per value, -1 between uses: what collectScope (metrics/collect.ts) borrows for its one pass over a scope. */
  slotScratch: Int32Array;
}

/** Rows that have a value, by rank: rankOf[row] (-1 without a value) and its inverse. */
export interface RowOrder {
  rankOf: Int32Array;
  rowAtRank: Int32Array;
}

export interface RecordTable {
  size: number;
  scenarios: string[];
  /** Instances (scenario, id): numbered 0..instanceCount-1 in order of first appearance. */
  instanceCount: number;
  /** Instance keys (records/key.ts), indexed by instance number: made on first use (instanceMatch and instanceKeyOf need none). */
  readonly instanceKeys: string[];
  /** The instances' ids, read back one at a time or matched with another table's. */
  instanceIndex: InstanceIndex;
  /** instanceMatch(this, baseline) per baseline, kept: the comparisons, coverage and changes of a gate all need it. */
  instanceMatches: WeakMap<RecordTable, Int32Array>;
  scenarioOf: Int32Array;
  instanceOf: Int32Array;
  kind: Uint8Array;
  /** 0, FAILED_CALL or UNGRADED: a row that is not 0 has no `correct` (NaN). */
  failed: Uint8Array;
  correct: Float64Array;
  /** JUDGE_PASS, JUDGE_FAIL, JUDGE_UNKNOWN, JUDGE_ERROR, or 0 for a row no judge graded. */
  judge: Uint8Array;
  /** The records' `human` labels (NaN: none). */
  human: Float64Array;
  /** SAMPLES_*, PAIR_*, LONGER_WON and SHORTER_WON bits: the judge's self-consistency and pairwise verdicts. */
  judgeProbes: Uint16Array;
  /** What each record's judge call cost (`judge.cost_usd`; NaN: none), apart from `costUsd`, the model's. */
  judgeCostUsd: Float64Array;
  /** Per scenario number, the distinct `provenance.scorer`s of its records ("" for records without one): judges' fingerprints. */
  scorers: Array<Set<string>>;
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
  /** The error most failed records have (undefined when none failed): the gate names it where failures decide. */
  commonFailure: CommonFailure | undefined;
  /** What the instances answered, when some record says (metrics/provenance.ts). */
  provenance?: InstanceProvenance;
}

/**
 * What the metric engine reads of a table: its numbers, scenarios and groups, not its instances' ids,
 * examples or provenance. Structured-cloneable: a worker thread computes a run's scopes from it
 * (pipeline/metrics-thread.ts), reading the row columns, which lie in shared memory, without a copy.
 */
export type MetricsTable = Pick<RecordTable, (typeof METRICS_TABLE_FIELDS)[number] | 'orderings'>;

/** The fields of a MetricsTable but its orderings (made before the table is sent: metrics/ordering.ts): what a metrics thread is sent. */
export const METRICS_TABLE_FIELDS = [
  'size',
  'scenarios',
  'instanceCount',
  'scenarioOf',
  'instanceOf',
  'kind',
  'failed',
  'correct',
  'judge',
  'human',
  'judgeProbes',
  'judgeCostUsd',
  'confidence',
  'latencyMs',
  'outputTokens',
  'costUsd',
  'toxicity',
  'groups',
  'samples',
] as const satisfies ReadonlyArray<keyof RecordTable>;

const optionalNumber = (value: unknown): number => (typeof value === 'number' ? value : NaN);

/** What a record's judge calls cost: the grade's and the pairwise comparison's, those that say (NaN: neither). Per record: no allocation. */
function judgeCost(grade: unknown, pairwise: unknown): number {
  if (typeof pairwise !== 'number') return optionalNumber(grade);
  return typeof grade === 'number' ? grade + pairwise : pairwise;
}

/** Collects validated records, in input order, into a RecordTable. */
export class RecordTableBuilder {
  private size = 0;
  private readonly scenarioIndex = new Map<string, number>();
  /** Per instance: its scenario and id (the instance keys are made from them only when asked for). */
  private readonly instances = new InstanceIndex();
  /** The last record's scenario (name and number), id and instance: a variant usually follows its original, and is found without a lookup. */
  private lastScenarioName = '';
  private lastScenario = -1;
  private lastId: string | undefined; // none before the first record
  private lastInstance = -1;
  private readonly columns = new RowColumns();
  private readonly groupColumns = new Map<string, { values: Map<string, number>; valueOf: GrowableColumn<Int32Array> }>();
  /** About how many records the table will hold (expectRows): the room each column is made with. */
  private expectedRows = 0;
  /** Distinct (attribute, value) pairs so far. */
  private groupCount = 0;
  private readonly examples = new ExampleIndex();
  private readonly failures = new FailureTally();
  private readonly scorers: Array<Set<string>> = [];
  private lastScorer = { scenario: -1, fingerprint: '' };
  /** Made at the first record with `provenance`. */
  private provenance: ProvenanceBuilder | undefined;

  /** `name` stands for the file the records come from, in errors. */
  constructor(private readonly name = 'records') {}

  /** Makes room for about `rows` records at once (a guess: more still fit; room left over costs little). */
  expectRows(rows: number): void {
    this.expectedRows = rows;
    this.columns.resize(rows);
    this.examples.expectRows(rows);
    this.instances.expect(rows); // at most one instance a record
  }

  /**
   * Adds a record (from `line` of its file). A second record of the same sample of the same example
   * (scenario, id, perturbation, sample) is an InputError at its line: the metrics would count it twice.
   */
  add(record: EvalRecord, line = this.size + 1): void {
    const instance = this.instanceOfRecord(record.scenario, record.id, line);
    const example = this.examples.exampleOf(instance, record.perturbation?.name);
    if (this.examples.perturbationsOf(instance) > MAX_PERTURBATIONS_PER_INSTANCE) {
      const what = `${describeKey(instanceKey(record.scenario, record.id))} has more than ${MAX_PERTURBATIONS_PER_INSTANCE} perturbations`;
      throw this.overLimit(line, 'perturbation.name', what);
    }
    const sample = record.sample ?? 0;
    const earlier = this.examples.lineOfSample(example, sample);
    if (earlier !== undefined) throw duplicateExample(this.name, line, exampleKey(exampleOf(record)), earlier);
    if (this.examples.samplesOf(example) >= MAX_SAMPLES_PER_EXAMPLE) {
      const what = `${describeKey(exampleKey({ ...exampleOf(record), sample: undefined }))} has more than ${MAX_SAMPLES_PER_EXAMPLE} samples`;
      throw this.overLimit(line, 'sample', what);
    }
    const row = this.size++;
    this.examples.addRow(row, example, sample, line);
    const columns = this.columns;
    columns.reserve(row);
    columns.scenarioOf[row] = this.lastScenario;
    columns.instanceOf[row] = instance;
    const perturbation = record.perturbation;
    columns.kind[row] = perturbation ? (perturbation.kind === 'robustness' ? KIND_ROBUSTNESS : KIND_FAIRNESS) : KIND_ORIGINAL;
    const failed = typeof record.error === 'string';
    const scored = !failed && typeof record.correct === 'number';
    // UNGRADED: the validator lets a record without `error` or `correct` through only when its judge gave no verdict.
    columns.failed[row] = failed ? FAILED_CALL : scored ? 0 : UNGRADED;
    if (failed) this.failures.add(record.error!);
    columns.correct[row] = scored ? record.correct! : NaN;
    columns.judge[row] = record.judge_error ? JUDGE_ERROR : record.judge ? JUDGE_CODES[record.judge.verdict] : 0;
    columns.judgeCostUsd[row] = judgeCost(record.judge?.cost_usd, record.judge_pairwise?.cost_usd);
    columns.judgeProbes[row] = judgeProbesOf(record);
    columns.human[row] = optionalNumber(record.human);
    // A failed call, or a failed judge call, was scored by nothing: its fingerprint says nothing of the grades.
    if (!failed && record.judge_error === undefined) this.addScorer(this.lastScenario, record.provenance?.scorer);
    columns.confidence[row] = optionalNumber(record.confidence);
    columns.latencyMs[row] = optionalNumber(record.latency_ms);
    columns.outputTokens[row] = optionalNumber(record.output_tokens);
    columns.costUsd[row] = optionalNumber(record.cost_usd);
    columns.toxicity[row] = optionalNumber(record.toxicity);
    if (record.groups) this.addGroups(row, record.groups, line);
    if (record.provenance) this.addProvenance(instance, record, line);
  }

  /** Keeps a scenario's scorer fingerprint (the last one seen is checked first: a scenario has one, nearly always). */
  private addScorer(scenario: number, scorer: string | null | undefined): void {
    const fingerprint = scorer ?? '';
    if (scenario === this.lastScorer.scenario && fingerprint === this.lastScorer.fingerprint) return;
    this.lastScorer = { scenario, fingerprint };
    (this.scorers[scenario] ??= new Set()).add(fingerprint);
  }

  private addProvenance(instance: number, record: EvalRecord, line: number): void {
    this.provenance ??= new ProvenanceBuilder(this.name);
    this.provenance.add(instance, record.provenance!, line, record.scenario, record.id);
  }

  /** A file over one of the bounds on what a table holds (src/limits.ts), at `line` and `field`. */
  private overLimit(line: number, field: string, what: string): InputError {
    return new InputError(this.name, line, `"${field}": ${what} (the limit: docs/record-format.md#limits)`);
  }

  /** The instance number of (scenario, id), numbered in order of first appearance; remembered as the last one. */
  private instanceOfRecord(scenarioName: string, id: string, line: number): number {
    if (id === this.lastId && scenarioName === this.lastScenarioName) return this.lastInstance;
    let scenario = this.scenarioIndex.get(scenarioName);
    if (scenario === undefined) {
      if (this.scenarioIndex.size >= MAX_SCENARIOS) throw this.overLimit(line, 'scenario', `more than ${MAX_SCENARIOS} scenarios`);
      scenario = this.scenarioIndex.size;
      this.scenarioIndex.set(scenarioName, scenario);
    }
    this.lastScenarioName = scenarioName;
    this.lastScenario = scenario;
    this.lastId = id;
    this.lastInstance = this.instances.numberOf(scenario, id);
    return this.lastInstance;
  }

  private addGroups(row: number, groups: Record<string, unknown>, line: number): void {
    for (const attribute in groups) {
      const raw = groups[attribute];
      if (raw === null || raw === undefined) continue;
      const value = String(raw);
      let column = this.groupColumns.get(attribute);
      if (!column) {
        if (this.groupColumns.size >= MAX_GROUP_ATTRIBUTES) {
          throw this.overLimit(line, 'groups', `more than ${MAX_GROUP_ATTRIBUTES} attributes`);
        }
        column = { values: new Map(), valueOf: new GrowableColumn(int32, -1) };
        column.valueOf.reserve(this.expectedRows); // most records of a run have the same attributes
        this.groupColumns.set(attribute, column);
      }
      let valueIndex = column.values.get(value);
      if (valueIndex === undefined) {
        if (this.groupCount++ >= MAX_GROUPS) {
          const what = `more than ${MAX_GROUPS} groups (attribute and value pairs): a group is a category many records share, not an identifier`;
          throw this.overLimit(line, `groups.${attribute}`, what);
        }
        valueIndex = column.values.size;
        column.values.set(value, valueIndex);
      }
      column.valueOf.set(row, valueIndex);
    }
  }

  build(): RecordTable {
    const size = this.size;
    const groups = new Map<string, GroupColumn>();
    for (const [attribute, column] of this.groupColumns) {
      const values = [...column.values.keys()];
      groups.set(attribute, { values, valueOf: column.valueOf.trimmed(size), slotScratch: new Int32Array(values.length).fill(-1) });
    }
    const columns = this.columns;
    const failed = columns.failed.subarray(0, size);
    const correct = columns.correct.subarray(0, size);
    const confidence = columns.confidence.subarray(0, size);
    const examples = this.examples.examples(size);
    const scenarios = [...this.scenarioIndex.keys()];
    const instances = this.instances;
    let instanceKeys: string[] | undefined;
    const table: Omit<RecordTable, 'instanceKeys'> = {
      size,
      scenarios,
      instanceCount: this.instances.size,
      scenarioOf: columns.scenarioOf.subarray(0, size),
      instanceOf: columns.instanceOf.subarray(0, size),
      kind: columns.kind.subarray(0, size),
      failed,
      correct,
      judge: columns.judge.subarray(0, size),
      human: columns.human.subarray(0, size),
      judgeProbes: columns.judgeProbes.subarray(0, size),
      judgeCostUsd: columns.judgeCostUsd.subarray(0, size),
      scorers: scenarios.map((_, scenario) => this.scorers[scenario] ?? new Set()),
      confidence,
      latencyMs: columns.latencyMs.subarray(0, size),
      outputTokens: columns.outputTokens.subarray(0, size),
      costUsd: columns.costUsd.subarray(0, size),
      toxicity: columns.toxicity.subarray(0, size),
      groups,
      examples,
      ...(this.examples.repeated ? { samples: this.examples.repeatedSamples(examples.exampleOf, failed, correct, confidence) } : {}),
      orderings: new Map(),
      commonFailure: this.failures.mostCommon(),
      instanceIndex: instances,
      instanceMatches: new WeakMap(),
      ...(this.provenance ? { provenance: this.provenance.build(this.instances.size) } : {}),
    };
    // Made on first use: most commands (metrics) never need 200,000 joined strings.
    return Object.defineProperty(table, 'instanceKeys', {
      get: () => {
        if (instanceKeys) return instanceKeys;
        const scenarioOf = instances.scenarioNumbers();
        instanceKeys = instances.ids().map((id, instance) => instanceKey(scenarios[scenarioOf[instance]], id));
        return instanceKeys;
      },
      enumerable: true,
    }) as RecordTable;
  }
}

/** One instance's key (records/key.ts), without making every instance's. */
export function instanceKeyOf(table: RecordTable, instance: number): string {
  return instanceKey(table.scenarios[table.instanceIndex.scenarioOf(instance)], table.instanceIndex.idOf(instance));
}

/** Each instance of the candidate's number in the baseline, -1 for those it lacks: instances matched by key, no key made. */
export function instanceIdMatch(candidate: RecordTable, baseline: RecordTable): Int32Array {
  const scenarioInBaseline = Int32Array.from(candidate.scenarios, (name) => baseline.scenarios.indexOf(name));
  return baseline.instanceIndex.numbersOf(candidate.instanceIndex, scenarioInBaseline);
}

/**
 * Each instance of the candidate's number in the baseline, -1 for those it lacks and for those whose
 * provenance differs (they answered another question: metrics/provenance.ts). Kept on the candidate.
 */
export function instanceMatch(candidate: RecordTable, baseline: RecordTable): Int32Array {
  let match = candidate.instanceMatches.get(baseline);
  if (!match) {
    const byId = instanceIdMatch(candidate, baseline);
    for (const instance of changedInstancesOf(candidate, baseline, () => byId)) byId[instance] = -1;
    candidate.instanceMatches.set(baseline, (match = byId));
  }
  return match;
}

/** The candidate's instances the baseline has by id but whose provenance differs there (none unless both runs give provenance). */
export function changedInstancesOf(
  candidate: RecordTable,
  baseline: RecordTable,
  idMatch = () => instanceIdMatch(candidate, baseline),
): Int32Array {
  if (!candidate.provenance || !baseline.provenance) return new Int32Array(0);
  return changedInstances(candidate.provenance, baseline.provenance, idMatch);
}

/** A table of records in memory (tests, imports); `name` stands for the file in errors, the record's position for its line. */
export function buildTable(records: Iterable<EvalRecord>, name = 'records'): RecordTable {
  const builder = new RecordTableBuilder(name);
  let line = 0;
  for (const record of records) builder.add(record, ++line);
  return builder.build();
}
