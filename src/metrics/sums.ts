/**
 * Weighted sums ("slots") that many metrics share: every mean, rate, total and binned calibration
 * error is a function of per-slot sums of w*value and of w, where w is the weight of the instance a
 * record belongs to. Each slot keeps its (instance, value) entries together, in input order, so that
 * one resample sums them in sequential runs.
 */

/** The entries of one slot: entry e adds weights[instance[e]] * value[e] and weights[instance[e]]. */
export interface Slot {
  instance: Int32Array;
  value: Float64Array;
}

export class SlotsBuilder {
  // While building, each slot is one growing array of (instance, value) pairs: a single array type
  // keeps the hot add() monomorphic.
  private pairs: Float64Array[] = [];
  private lengths: number[] = [];

  newSlot(): number {
    this.pairs.push(new Float64Array(64));
    this.lengths.push(0);
    return this.pairs.length - 1;
  }

  add(slot: number, instance: number, value: number): void {
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
  }

  /** How many entries the slot has: the records (or instances) its metric rests on. */
  count(slot: number): number {
    return this.lengths[slot] / 2;
  }

  build(): Slot[] {
    return this.pairs.map((pairs, slot) => {
      const entries = this.count(slot);
      const instance = new Int32Array(entries);
      const value = new Float64Array(entries);
      for (let entry = 0; entry < entries; entry++) {
        instance[entry] = pairs[2 * entry];
        value[entry] = pairs[2 * entry + 1];
      }
      return { instance, value };
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
    const { instance, value } = slots[index];
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
