/**
 * Weighted sums ("slots") that many metrics share: every mean, rate, total and binned calibration
 * error is a function of per-slot sums of w*value and of w, where w is the weight of the instance a
 * record belongs to. Each slot keeps its (instance, value) entries together, in input order, so that
 * one resample sums them in sequential runs.
 */

class GrowableArray<T extends Float64Array | Int32Array> {
  length = 0;
  constructor(private data: T) {}
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new (this.data.constructor as new (size: number) => T)(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  done(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

/** The entries of one slot: entry e adds weights[instance[e]] * value[e] and weights[instance[e]]. */
export interface Slot {
  instance: Int32Array;
  value: Float64Array;
}

export class SlotsBuilder {
  private readonly slots: Array<{ instance: GrowableArray<Int32Array>; value: GrowableArray<Float64Array> }> = [];

  newSlot(): number {
    this.slots.push({ instance: new GrowableArray(new Int32Array(64)), value: new GrowableArray(new Float64Array(64)) });
    return this.slots.length - 1;
  }

  add(slot: number, instance: number, value: number): void {
    const entries = this.slots[slot];
    entries.instance.push(instance);
    entries.value.push(value);
  }

  /** How many entries the slot has: the records (or instances) its metric rests on. */
  count(slot: number): number {
    return this.slots[slot].instance.length;
  }

  build(): Slot[] {
    return this.slots.map((slot) => ({ instance: slot.instance.done(), value: slot.value.done() }));
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
