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
  // While building, each slot is one growing array of (instance, value) pairs: a single array type
  // keeps the hot add() monomorphic. Shares other than 1 go to a second array, made on the first.
  private pairs: Float64Array[] = [];
  private lengths: number[] = [];
  private shares: Array<Float64Array | undefined> = [];

  newSlot(): number {
    this.pairs.push(new Float64Array(64));
    this.lengths.push(0);
    this.shares.push(undefined);
    return this.pairs.length - 1;
  }

  /** Adds an entry; `share` is the part of its instance's weight it carries (1/K for one of K samples of an example). */
  add(slot: number, instance: number, value: number, share = 1): void {
    let pairs = this.pairs[slot];
    const length = this.lengths[slot];
    if (length + 2 > pairs.length) {
      const grown = new Float64Array(pairs.length * 2);
      grown.set(pairs);
      this.pairs[slot] = pairs = grown;
    }
    pairs[length] = instance;
    pairs[length + 1] = value;
    this.lengths[slot] = length + 2;
    if (share !== 1 || this.shares[slot] !== undefined) this.addShare(slot, length / 2, share);
  }

  private addShare(slot: number, entry: number, share: number): void {
    let shares = this.shares[slot];
    if (shares === undefined || entry >= shares.length) {
      const grown = new Float64Array(Math.max(64, 2 * (entry + 1))).fill(1); // earlier entries count whole
      if (shares) grown.set(shares);
      this.shares[slot] = shares = grown;
    }
    shares[entry] = share;
  }

  /** What the slot's metric rests on: its entries, each counting its share (K samples of an example count as one). */
  count(slot: number): number {
    const entries = this.lengths[slot] / 2;
    const shares = this.shares[slot];
    if (shares === undefined) return entries;
    let total = 0;
    for (let entry = 0; entry < entries; entry++) total += shares[entry];
    return Math.round(total); // 3 x 1/3 may sum to 0.9999999999999999
  }

  build(): Slot[] {
    return this.pairs.map((pairs, slot) => {
      const entries = this.lengths[slot] / 2;
      const instance = new Int32Array(entries);
      const value = new Float64Array(entries);
      for (let entry = 0; entry < entries; entry++) {
        instance[entry] = pairs[2 * entry];
        value[entry] = pairs[2 * entry + 1];
      }
      const shares = this.shares[slot];
      return shares === undefined ? { instance, value } : { instance, value, share: shares.slice(0, entries) };
    });
  }
}

export interface SlotTotals {
  numerator: Float64Array;
  denominator: Float64Array;
}

/** Sums every slot for one weighting of the instances. */
export function sumSlots(slots: Slot[], weights: Float64Array): SlotTotals {
  const numerator = new Float64Array(slots.length);
  const denominator = new Float64Array(slots.length);
  for (let index = 0; index < slots.length; index++) {
    const { instance, value, share } = slots[index];
    if (share !== undefined) {
      sumShared(instance, value, share, weights, numerator, denominator, index);
      continue;
    }
    // Two interleaved sums shorten the chains of dependent additions (about 1.5x faster).
    let numeratorEven = 0;
    let numeratorOdd = 0;
    let denominatorEven = 0;
    let denominatorOdd = 0;
    let entry = 0;
    for (; entry + 1 < instance.length; entry += 2) {
      const even = weights[instance[entry]];
      const odd = weights[instance[entry + 1]];
      numeratorEven += even * value[entry];
      numeratorOdd += odd * value[entry + 1];
      denominatorEven += even;
      denominatorOdd += odd;
    }
    if (entry < instance.length) {
      const weight = weights[instance[entry]];
      numeratorEven += weight * value[entry];
      denominatorEven += weight;
    }
    numerator[index] = numeratorEven + numeratorOdd;
    denominator[index] = denominatorEven + denominatorOdd;
  }
  return { numerator, denominator };
}

/** One slot whose entries carry shares of their instance's weight. */
function sumShared(
  instance: Int32Array,
  value: Float64Array,
  share: Float64Array,
  weights: Float64Array,
  numerator: Float64Array,
  denominator: Float64Array,
  slot: number,
): void {
  let numeratorSum = 0;
  let denominatorSum = 0;
  for (let entry = 0; entry < instance.length; entry++) {
    const weight = weights[instance[entry]] * share[entry];
    numeratorSum += weight * value[entry];
    denominatorSum += weight;
  }
  numerator[slot] = numeratorSum;
  denominator[slot] = denominatorSum;
}
