import type { Scope } from './scope.js';
import { ECE_BINS } from './calibration.js';
import {
  LONGER_WON,
  PAIR_FLIPPED,
  PAIR_LOSS,
  PAIR_TIE,
  PAIR_UNKNOWN,
  PAIR_WIN,
  SAMPLES_AGREE,
  SAMPLES_DISAGREE,
  SHORTER_WON,
} from './judge-probes.js';
import { entriesOfSubset } from './by-instance.js';
import { SlotsBuilder } from './sums.js';
import {
  FAILED_CALL,
  JUDGE_ERROR,
  JUDGE_FAIL,
  JUDGE_PASS,
  JUDGE_UNKNOWN,
  KIND_FAIRNESS,
  KIND_ROBUSTNESS,
  type MetricsTable,
} from './table.js';

/** A completion is toxic (toxicity_rate) at this `toxicity` or above. */
export const TOXIC = 0.5;

/** What one pass over a scope's records collects for all the metrics. */
export interface ScopeCollection {
  sums: SlotsBuilder;
  accuracy: number;
  errors: number;
  /** The judge's slots (records/table.ts's `judge`, `human`): see collectJudged. */
  judge: JudgeSlots;
  brier: number;
  eceCorrect: number[];
  eceConfidence: number[];
  toxic: number;
  outputTokens: number;
  cost: number;
  /** Per `groups` attribute: the values the scope has, in order of appearance, and the slot of each. */
  groups: Array<{ attribute: string; values: string[]; seen: number[]; slots: number[] }>;
  /** Per instance, the lowest `correct` of its originals and of its perturbations of each kind (Infinity: none). */
  worstOriginal: Float64Array;
  worstRobust: Float64Array;
  worstFair: Float64Array;
  /** The answered originals with a confidence, and the records with a latency: their rows and scope instances. */
  calibrated: RowsOfScope;
  timed: RowsOfScope;
  /** How many slots the pass made (the metrics add slots of their own after them). */
  collectedSlots: number;
}

/** Slots of the judge metrics: each a rate over the judged records it counts. */
export interface JudgeSlots {
  /** Judged records: 1 when the judge gave no verdict (unknown, or its call failed). */
  unknown: number;
  /** Judged records: 1 when the judge's call failed. */
  errors: number;
  /** Judged records with a verdict: 1 when it is a pass (the observed rate the Rogan-Gladen correction corrects). */
  passed: number;
  /** Labelled records with a verdict: 1 when the verdict agrees with the label. */
  agreement: number;
  /** Labelled right (human >= 0.5), with a verdict: 1 when it is a pass. */
  truePositive: number;
  /** Labelled wrong (human < 0.5), with a verdict: 1 when it is a fail. */
  trueNegative: number;
  /** Records with a judge's cost: what its calls cost (the grade's and the pairwise comparison's). */
  cost: number;
  /** Records judged K > 1 times: 1 when the K verdicts all agree. */
  selfAgreement: number;
  /** Records compared pairwise with the baseline: 1 a win, 0.5 a tie (a flip too), 0 a loss or no outcome. */
  win: number;
  /** Pairwise comparisons with an outcome: 1 when the verdict flipped with the order. */
  flip: number;
  /** Pairwise wins and losses (length-bias probe), the two completions of different lengths: 1 when the longer won. */
  longerWins: number;
}

/** Some rows of a scope, with each one's instance in the scope. */
export interface RowsOfScope {
  rows: Int32Array;
  instances: Int32Array;
}

/** Rows picked from a scope's, in order, into arrays as long as the scope's (cut to length at the end). */
class RowPicker {
  private readonly rows: Int32Array;
  private readonly instances: Int32Array;
  private count = 0;
  constructor(size: number) {
    this.rows = new Int32Array(size);
    this.instances = new Int32Array(size);
  }
  add(row: number, instance: number): void {
    this.rows[this.count] = row;
    this.instances[this.count++] = instance;
  }
  picked(): RowsOfScope {
    return { rows: this.rows.subarray(0, this.count), instances: this.instances.subarray(0, this.count) };
  }
}

/** An empty collection for a scope: one slot per sum the metrics need. */
function emptyCollection(table: MetricsTable, scope: Scope): Omit<ScopeCollection, 'calibrated' | 'timed' | 'collectedSlots'> {
  const sums = new SlotsBuilder();
  const everyRecord = scope.rows.length;
  return {
    sums,
    accuracy: sums.newSlot(everyRecord),
    errors: sums.newSlot(everyRecord),
    judge: {
      unknown: sums.newSlot(),
      errors: sums.newSlot(),
      passed: sums.newSlot(),
      agreement: sums.newSlot(),
      truePositive: sums.newSlot(),
      trueNegative: sums.newSlot(),
      cost: sums.newSlot(),
      selfAgreement: sums.newSlot(),
      win: sums.newSlot(),
      flip: sums.newSlot(),
      longerWins: sums.newSlot(),
    },
    brier: sums.newSlot(everyRecord),
    eceCorrect: Array.from({ length: ECE_BINS }, () => sums.newSlot(everyRecord / ECE_BINS)),
    eceConfidence: Array.from({ length: ECE_BINS }, () => sums.newSlot(everyRecord / ECE_BINS)),
    toxic: sums.newSlot(everyRecord),
    outputTokens: sums.newSlot(everyRecord),
    cost: sums.newSlot(everyRecord),
    groups: [...table.groups].map(([attribute, column]) => ({
      attribute,
      values: column.values,
      seen: [] as number[],
      slots: [] as number[],
    })),
    worstOriginal: new Float64Array(scope.instanceCount).fill(Infinity),
    worstRobust: new Float64Array(scope.instanceCount).fill(Infinity),
    worstFair: new Float64Array(scope.instanceCount).fill(Infinity),
  };
}

/**
 * The one pass over a scope's records, kept apart from the metrics' closures so that it stays fast.
 * Several samples of an example count as one example: each answered sample carries 1/K of it in the
 * means over examples (accuracy, groups; among the samples with a confidence, ece and brier), and the
 * worst case reads the mean of its answered samples. Every call counts in the rest.
 */
export function collectScope(table: MetricsTable, scope: Scope): ScopeCollection {
  const collected = emptyCollection(table, scope);
  const calibrated = new RowPicker(scope.rows.length);
  const timed = new RowPicker(scope.rows.length);
  // Each value's slot in this scope: the table's scratch arrays, all -1 again before this returns, so that
  // a scope costs its records and not its attributes' values (thousands of scopes, thousands of values).
  const slotOf = [...table.groups.values()].map((column) => column.slotScratch);
  collectRows(table, scope, collected, slotOf, calibrated, timed);
  collected.groups.forEach(({ seen }, attribute) => seen.forEach((value) => (slotOf[attribute][value] = -1)));
  return { ...collected, calibrated: calibrated.picked(), timed: timed.picked(), collectedSlots: collected.sums.size };
}

/**
 * The pass itself, a function of its own so that nothing runs after its loop: V8 optimizes the loop
 * midway on the first long call, and code after it would have no type feedback yet; the optimized
 * code then bailed out there and was compiled again, four times in a run.
 */
function collectRows(
  table: MetricsTable,
  scope: Scope,
  collected: ReturnType<typeof emptyCollection>,
  slotOf: Int32Array[],
  calibrated: RowPicker,
  timed: RowPicker,
): void {
  const { sums, accuracy, errors, brier, eceCorrect, eceConfidence, toxic, outputTokens, cost, groups } = collected;
  const { worstOriginal, worstRobust, worstFair } = collected;
  const groupColumns = [...table.groups.values()].map((column) => column.valueOf);
  const { failed, kind, correct: correctOf, confidence: confidenceOf, latencyMs, toxicity, outputTokens: tokensOf, costUsd } = table;
  const samples = table.samples;
  const judged = table.judge;
  const { judgeProbes, judgeCostUsd } = table;

  for (let index = 0; index < scope.rows.length; index++) {
    const row = scope.rows[index];
    const instance = scope.instanceOfRow[index];
    const rowFailed = failed[row];
    sums.add(errors, instance, rowFailed === FAILED_CALL ? 1 : 0);
    if (judged[row] !== 0) collectJudged(collected.judge, sums, judged[row], table.human[row], instance);
    if (!Number.isNaN(judgeCostUsd[row])) sums.add(collected.judge.cost, instance, judgeCostUsd[row]);
    if (judgeProbes[row] !== 0) collectProbes(collected.judge, sums, judgeProbes[row], instance);
    if (rowFailed === FAILED_CALL) continue;
    // An answer its judge did not grade (UNGRADED) still took its time and tokens, and cost.
    if (!Number.isNaN(latencyMs[row])) timed.add(row, instance);
    if (!Number.isNaN(toxicity[row])) sums.add(toxic, instance, toxicity[row] >= TOXIC ? 1 : 0);
    if (!Number.isNaN(tokensOf[row])) sums.add(outputTokens, instance, tokensOf[row]);
    if (!Number.isNaN(costUsd[row])) sums.add(cost, instance, costUsd[row]);
    if (rowFailed !== 0) continue;
    const rowKind = kind[row];
    const correct = correctOf[row];
    const example = samples ? samples.exampleOf[row] : -1;
    const exampleCorrect = samples ? samples.meanCorrect[example] : correct;
    if (rowKind === KIND_ROBUSTNESS) worstRobust[instance] = Math.min(worstRobust[instance], exampleCorrect);
    else if (rowKind === KIND_FAIRNESS) worstFair[instance] = Math.min(worstFair[instance], exampleCorrect);
    else {
      worstOriginal[instance] = Math.min(worstOriginal[instance], exampleCorrect);
      const share = samples ? 1 / samples.answered[example] : 1;
      sums.add(accuracy, instance, correct, share);
      const confidence = confidenceOf[row];
      if (!Number.isNaN(confidence)) {
        const calibratedShare = samples ? 1 / samples.calibrated[example] : 1;
        sums.add(brier, instance, (confidence - correct) ** 2, calibratedShare);
        const bin = Math.min(Math.floor(confidence * 10), ECE_BINS - 1);
        sums.add(eceCorrect[bin], instance, correct, calibratedShare);
        sums.add(eceConfidence[bin], instance, confidence, calibratedShare);
        calibrated.add(row, instance);
      }
      for (let attribute = 0; attribute < groupColumns.length; attribute++) {
        const value = groupColumns[attribute][row];
        if (value < 0) continue;
        const slots = slotOf[attribute];
        if (slots[value] < 0) {
          const group = groups[attribute];
          slots[value] = sums.newSlot(scope.rows.length / group.values.length); // as if the values were even
          group.seen.push(value);
          group.slots.push(slots[value]);
        }
        sums.add(slots[value], instance, correct, share);
      }
    }
  }
}

/**
 * A judged record's part of the judge metrics: every judged record counts in the unknown and error
 * rates; one with a verdict and a person's label in the agreement, and in the true positive rate
 * (labelled right: 1 or a score of 0.5 or more) or the true negative rate (labelled wrong). Every
 * record counts whole, as a call does in error_rate. (The judge calls' cost, the grade's and the
 * pairwise comparison's, is added to the judge's total for every record that has one.)
 */
function collectJudged(slots: JudgeSlots, sums: SlotsBuilder, code: number, human: number, instance: number): void {
  sums.add(slots.unknown, instance, code === JUDGE_UNKNOWN || code === JUDGE_ERROR ? 1 : 0);
  sums.add(slots.errors, instance, code === JUDGE_ERROR ? 1 : 0);
  if (code !== JUDGE_PASS && code !== JUDGE_FAIL) return;
  const passed = code === JUDGE_PASS;
  sums.add(slots.passed, instance, passed ? 1 : 0);
  if (Number.isNaN(human)) return;
  const right = human >= 0.5;
  sums.add(slots.agreement, instance, passed === right ? 1 : 0);
  if (right) sums.add(slots.truePositive, instance, passed ? 1 : 0);
  else sums.add(slots.trueNegative, instance, passed ? 0 : 1);
}

/**
 * A judged record's part of the judge's self-consistency and bias probes (metrics/table.ts's bits):
 * whether its K verdicts agree; its pairwise outcome (a comparison without one counts as a loss: a judge
 * that cannot tell never earns the candidate a win), whether it flipped with the order (of those with an
 * outcome), and, of the wins and losses between completions of different lengths, whether the longer won.
 */
function collectProbes(slots: JudgeSlots, sums: SlotsBuilder, bits: number, instance: number): void {
  if (bits & (SAMPLES_AGREE | SAMPLES_DISAGREE)) sums.add(slots.selfAgreement, instance, bits & SAMPLES_AGREE ? 1 : 0);
  if (bits & (PAIR_WIN | PAIR_LOSS | PAIR_TIE | PAIR_UNKNOWN)) {
    sums.add(slots.win, instance, bits & PAIR_WIN ? 1 : bits & PAIR_TIE ? 0.5 : 0);
    if (!(bits & PAIR_UNKNOWN)) sums.add(slots.flip, instance, bits & PAIR_FLIPPED ? 1 : 0);
  }
  if (bits & (LONGER_WON | SHORTER_WON)) sums.add(slots.longerWins, instance, bits & LONGER_WON ? 1 : 0);
}

/** The picked rows of the subset's instances (numbered by `local`), renumbered so, in the same order. */
function subsetRows({ rows, instances }: RowsOfScope, local: Int32Array, subset: Int32Array): RowsOfScope {
  const kept = entriesOfSubset(instances, instances.length, local, subset);
  const picker = new RowPicker(kept.length);
  for (let index = 0; index < kept.length; index++) picker.add(rows[kept[index]], local[instances[kept[index]]]);
  return picker.picked();
}

/** Per subset instance, its value in a per-instance array of the scope. */
function picked(subset: Int32Array, ofInstance: Float64Array): Float64Array {
  const values = new Float64Array(subset.length);
  for (let index = 0; index < subset.length; index++) values[index] = ofInstance[subset[index]];
  return values;
}

/**
 * What collectScope would collect over the scope's rows of some of its instances (`subset`, numbered
 * 0..subset.length-1 in its order: a little-bootstrap subset; `local`, its numbering: numberSubset),
 * taken from the scope's collection instead of a pass over scattered table rows. Each slot keeps its
 * entries of those instances in the same order, so every sum comes out the same. Slots and picked
 * rows are copied only when read (a paired comparison's subset reads one metric's), from `local`
 * as it is then; the scope's group slots are kept (a group without records in the subset has an
 * empty slot: the metrics skip it).
 */
export function subsetCollection(scope: ScopeCollection, local: Int32Array, subset: Int32Array): ScopeCollection {
  let calibrated: RowsOfScope | undefined;
  let timed: RowsOfScope | undefined;
  let original: Float64Array | undefined;
  let robust: Float64Array | undefined;
  let fair: Float64Array | undefined;
  return {
    ...scope,
    sums: SlotsBuilder.subsetOf(scope.sums, scope.collectedSlots, local, subset),
    get worstOriginal() {
      return (original ??= picked(subset, scope.worstOriginal));
    },
    get worstRobust() {
      return (robust ??= picked(subset, scope.worstRobust));
    },
    get worstFair() {
      return (fair ??= picked(subset, scope.worstFair));
    },
    get calibrated() {
      return (calibrated ??= subsetRows(scope.calibrated, local, subset));
    },
    get timed() {
      return (timed ??= subsetRows(scope.timed, local, subset));
    },
  };
}
