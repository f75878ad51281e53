import { entriesOfSubset } from './by-instance.js';
import { grown } from './columns.js';

/**
 * Weighted sums ("slots") that many metrics share: every mean, rate, total and binned calibration
 * error is a function of per-slot sums of w*value and of w, where w is the weight of the instance a
 * record belongs to (times the record's share of it, for one of several samples of an example). Each
 * slot keeps its (instance, value) entries together, in input order, so that one resample sums them
 * in sequential runs.
 */

/**
 * The entries of one slot: entry e adds weights[instance[e]] * share[e] * value[e] and
 * weights[instance[e]] * share[e]. `share` is absent when every entry counts whole (no repeated
 * samples): the common case keeps its plain, faster sum.
 */
export interface Slot {
  instance: Int32Array;
  value: Float64Array;
  share?: Float64Array;
}

export class SlotsBuilder {
  // Each slot's entries grow in two typed arrays (doubling); shares other than 1 go to a third, made on the first.
  private instances: Int32Array[] = [];
  private values: Float64Array[] = [];
  private lengths: number[] = [];
  /** What each slot was expected to hold (newSlot): its first growth goes straight there. */
  private expected: number[] = [];
  private shares: Array<Float64Array | undefined> = [];
  // A subset's slots not yet copied from the scope's (see subsetOf): copied when first read.
  private sources: Array<{ from: SlotsBuilder; local: Int32Array; subset: Int32Array } | undefined> = [];

  /**
   * The first `slots` slots of a scope's builder, restricted to some of its instances (`subset`, their
   * numbering `local`: by-instance.ts's numberSubset), renumbered so, in the same order. Each slot is
   * copied when first read (count, build), so a subset that needs one slot pays for that one. Its
   * copied slots are read-only (add to new slots only).
   */
  static subsetOf(from: SlotsBuilder, slots: number, local: Int32Array, subset: Int32Array): SlotsBuilder {
    const builder = new SlotsBuilder();
    for (let slot = 0; slot < slots; slot++) {
      builder.newSlot(1);
      builder.sources[slot] = { from, local, subset };
    }
    return builder;
  }

  /** The slot's entries, copied from its source first if it is a subset's. */
  private copied(slot: number): void {
    const source = this.sources[slot];
    if (source === undefined) return;
    this.sources[slot] = undefined;
    const { from, local, subset } = source;
    const entries = { instances: from.instances[slot], values: from.values[slot], shares: from.shares[slot] };
    const kept = entriesOfSubset(entries.instances, from.lengths[slot], local, subset);
    // Shares only when a kept entry's is not 1.
    const shared = entries.shares !== undefined && keepsShares(entries.shares, kept);
    const instance = new Int32Array(Math.max(1, kept.length));
    const value = new Float64Array(instance.length);
    const share = shared ? new Float64Array(instance.length) : undefined;
    copyKept(entries, kept, local, instance, value, share);
    this.instances[slot] = instance;
    this.values[slot] = value;
    this.shares[slot] = share;
    this.lengths[slot] = kept.length;
  }

  /** How many slots there are. */
  get size(): number {
    return this.values.length;
  }

  /** How many entries the slot has (each counting one, whatever its share). */
  entries(slot: number): number {
    this.copied(slot);
    return this.lengths[slot];
  }

  /**
   * A new slot. `expectedEntries`: about how many entries it will get (a scope's records for a slot
   * that takes every record, a tenth of them for a calibration bin, ...): it starts at 64 entries at
   * most, grows to the expected entries when it has more, and doubles from there. A slot that stays
   * empty (no toxicity in the records) stays small, and a full one is copied once, not in a few
   * doublings: a large array's memory is only paid for where it is written.
   */
  newSlot(expectedEntries = 0): number {
    const capacity = Math.max(1, Math.min(64, Math.ceil(expectedEntries)));
    this.instances.push(new Int32Array(capacity));
    this.values.push(new Float64Array(capacity));
    this.lengths.push(0);
    this.expected.push(Math.ceil(expectedEntries));
    this.shares.push(undefined);
    this.sources.push(undefined);
    return this.values.length - 1;
  }

  /** Adds an entry; `share` is the part of its instance's weight it carries (1/K for one of K samples of an example). */
  add(slot: number, instance: number, value: number, share = 1): void {
    const length = this.lengths[slot];
    if (length === this.values[slot].length) this.grow(slot);
    this.instances[slot][length] = instance;
    this.values[slot][length] = value;
    this.lengths[slot] = length + 1;
    if (share !== 1 || this.shares[slot] !== undefined) this.addShare(slot, length, share);
  }

  private grow(slot: number): void {
    const capacity = Math.max(this.values[slot].length * 2, this.expected[slot]);
    this.instances[slot] = grown(this.instances[slot], capacity);
    this.values[slot] = grown(this.values[slot], capacity);
  }

  private addShare(slot: number, entry: number, share: number): void {
    let shares = this.shares[slot];
    if (shares === undefined || entry >= shares.length) {
      // Earlier entries count whole.
      this.shares[slot] = shares = grown(shares ?? new Float64Array(0), Math.max(64, 2 * (entry + 1)), 1);
    }
    shares[entry] = share;
  }

  /** What the slot's metric rests on: its entries, each counting its share (K samples of an example count as one). */
  count(slot: number): number {
    this.copied(slot);
    const entries = this.lengths[slot];
    const shares = this.shares[slot];
    if (shares === undefined) return entries;
    let total = 0;
    for (let entry = 0; entry < entries; entry++) total += shares[entry];
    return Math.round(total); // 3 x 1/3 may sum to 0.9999999999999999
  }

  /** The `used` slots (the others' sums stay 0), those with the same entries (instances and shares) grouped to be summed in one pass. */
  build(used: Set<number>): SlotSums {
    return new SlotSums(
      this.values.map((_, slot) => {
        if (!used.has(slot)) return EMPTY_SLOT;
        this.copied(slot);
        const entries = this.lengths[slot];
        if (entries === 0) return EMPTY_SLOT;
        return {
          instance: this.instances[slot].subarray(0, entries),
          value: this.values[slot].subarray(0, entries),
          share: this.shares[slot]?.subarray(0, entries),
        };
      }),
    );
  }
}

const EMPTY_SLOT: Slot = { instance: new Int32Array(0), value: new Float64Array(0) };

export interface SlotTotals {
  numerator: Float64Array;
  denominator: Float64Array;
}

/** Slots of the same entries, summed together: values[k] holds the values of slots[k]. */
interface SlotGroup {
  slots: number[];
  instance: Int32Array;
  share: Float64Array | undefined;
  values: Float64Array[];
}

/** A slot's entries, to copy a subset's from (copied). */
interface SlotEntries {
  instances: Int32Array;
  values: Float64Array;
  shares: Float64Array | undefined;
}

/*
 * copied's passes, each a function that ends with its loop: code after a loop that V8 optimized midway
 * (on-stack replacement) had no type feedback yet, and the optimized code bailed out there.
 */

/** Whether a kept entry has a share other than 1. */
function keepsShares(shares: Float64Array, kept: Int32Array): boolean {
  for (let index = 0; index < kept.length; index++) if (shares[kept[index]] !== 1) return true;
  return false;
}

/** The kept entries, renumbered, in order (their shares too when `share` is given). */
function copyKept(
  { instances, values, shares }: SlotEntries,
  kept: Int32Array,
  local: Int32Array,
  instance: Int32Array,
  value: Float64Array,
  share: Float64Array | undefined,
): void {
  for (let index = 0; index < kept.length; index++) {
    const entry = kept[index];
    instance[index] = local[instances[entry]];
    value[index] = values[entry];
    if (share) share[index] = shares![entry];
  }
}

/** A group sums at most this many slots in one pass (each in its own pair of accumulators). */
const GROUP_WIDTH = 4;

function sameEntries(a: { instance: Int32Array; share?: Float64Array }, b: { instance: Int32Array; share?: Float64Array }): boolean {
  if (a.instance.length !== b.instance.length || (a.share === undefined) !== (b.share === undefined)) return false;
  return sameNumbers(a.instance, b.instance) && (a.share === undefined || sameNumbers(a.share, b.share!));
}

/**
 * Whether two arrays of one length hold the same numbers: a function that ends with its loop (code
 * after a loop that V8 optimized midway had no type feedback, and bailed out there: 163 times a gate).
 */
function sameNumbers(a: Int32Array | Float64Array, b: Int32Array | Float64Array): boolean {
  for (let entry = 0; entry < a.length; entry++) if (a[entry] !== b[entry]) return false;
  return true;
}

/**
 * The slots of a statistic, ready to be summed for any weighting. Many slots have the same entries
 * (accuracy, brier and the worst cases: one per answered original; a calibration bin's correct and
 * confidence): summed together, each entry's weight is read once for all of them.
 */
export class SlotSums {
  private readonly groups: SlotGroup[] = [];
  private readonly totals: SlotTotals;

  constructor(slots: Slot[]) {
    this.totals = { numerator: new Float64Array(slots.length), denominator: new Float64Array(slots.length) };
    // Candidates to share a group: slots of the same length, share or not, and first and last instance;
    // only those are compared entry by entry (a scope may have thousands of group slots).
    const byShape = new Map<string, SlotGroup[]>();
    slots.forEach((slot, index) => {
      const entries = slot.instance.length;
      if (entries === 0) return; // its sums are the 0s sum() starts from (most slots of a small scope)
      const shape = `${entries} ${slot.share !== undefined} ${slot.instance[0]} ${slot.instance[entries - 1]}`;
      const candidates = byShape.get(shape) ?? [];
      byShape.set(shape, candidates);
      const group = candidates.find((candidate) => candidate.slots.length < GROUP_WIDTH && sameEntries(candidate, slot));
      if (group) {
        group.slots.push(index);
        group.values.push(slot.value);
      } else {
        const created = { slots: [index], instance: slot.instance, share: slot.share, values: [slot.value] };
        candidates.push(created);
        this.groups.push(created);
      }
    });
    warmUpSumGroup();
  }

  /**
   * Every slot's sums of weight * value and of weight, in the same two arrays on every call (read them
   * before the next): a resample of a small scope costs little more than allocating them. An empty
   * slot's sums stay the 0s they start as.
   */
  sum(weights: Float64Array): SlotTotals {
    const { numerator, denominator } = this.totals;
    for (const group of this.groups) {
      if (group.share) sumShared(group, weights, numerator, denominator);
      else sumGroup(group, weights, numerator, denominator);
    }
    return { numerator, denominator };
  }
}

/** One group's sums. Two interleaved sums per total shorten the chains of dependent additions (about 1.5x faster). */
function sumGroup({ slots, instance, values }: SlotGroup, weights: Float64Array, numerator: Float64Array, denominator: Float64Array): void {
  const width = slots.length;
  // Slots past the width stand in as the first one: skipped in the loop, summed and dropped in the tail.
  const a = values[0];
  const b = width > 1 ? values[1] : a;
  const c = width > 2 ? values[2] : a;
  const d = width > 3 ? values[3] : a;
  let weightEven = 0;
  let weightOdd = 0;
  let a0 = 0;
  let a1 = 0;
  let b0 = 0;
  let b1 = 0;
  let c0 = 0;
  let c1 = 0;
  let d0 = 0;
  let d1 = 0;
  const entries = instance.length;
  let entry = 0;
  for (; entry + 1 < entries; entry += 2) {
    const even = weights[instance[entry]];
    const odd = weights[instance[entry + 1]];
    weightEven += even;
    weightOdd += odd;
    a0 += even * a[entry];
    a1 += odd * a[entry + 1];
    if (width > 1) {
      b0 += even * b[entry];
      b1 += odd * b[entry + 1];
    }
    if (width > 2) {
      c0 += even * c[entry];
      c1 += odd * c[entry + 1];
    }
    if (width > 3) {
      d0 += even * d[entry];
      d1 += odd * d[entry + 1];
    }
  }
  if (entry < entries) {
    const weight = weights[instance[entry]];
    weightEven += weight;
    a0 += weight * a[entry];
    b0 += weight * b[entry];
    c0 += weight * c[entry];
    d0 += weight * d[entry];
  }
  const weight = weightEven + weightOdd;
  numerator[slots[0]] = a0 + a1;
  if (width > 1) numerator[slots[1]] = b0 + b1;
  if (width > 2) numerator[slots[2]] = c0 + c1;
  if (width > 3) numerator[slots[3]] = d0 + d1;
  for (let k = 0; k < width; k++) denominator[slots[k]] = weight;
}

const warmUp = Float64Array.of(0.5, 0.25, 0.125);
const warmUpGroup: SlotGroup = {
  slots: [0, 1, 2, 3],
  instance: Int32Array.of(0, 1, 2),
  share: undefined,
  values: [warmUp, warmUp, warmUp, warmUp],
};
let warmedUp = false;

/**
 * Runs every path of sumGroup on three entries, a few dozen times (V8 records type feedback only
 * once a function has been called several times). Without it V8 optimizes the first long loop
 * midway (on-stack replacement) before the code after the loop has ever run: that code has no
 * feedback, and the optimized code, entered again midway by every later call, bailed out there each
 * time (27,000 times in one run of 300,000 records).
 */
function warmUpSumGroup(): void {
  if (warmedUp) return;
  warmedUp = true;
  for (let call = 0; call < 32; call++) sumGroup(warmUpGroup, warmUp, new Float64Array(4), new Float64Array(4));
}

/** One group whose entries carry shares of their instance's weight. */
function sumShared(
  { slots, instance, share, values }: SlotGroup,
  weights: Float64Array,
  numerator: Float64Array,
  denominator: Float64Array,
): void {
  const sums = new Float64Array(slots.length);
  let weightSum = 0;
  for (let entry = 0; entry < instance.length; entry++) {
    const weight = weights[instance[entry]] * share![entry];
    weightSum += weight;
    for (let k = 0; k < slots.length; k++) sums[k] += weight * values[k][entry];
  }
  slots.forEach((slot, k) => {
    numerator[slot] = sums[k];
    denominator[slot] = weightSum;
  });
}
