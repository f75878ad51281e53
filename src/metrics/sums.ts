/**
 * Weighted sums ("slots") that many metrics share: every mean, rate, total and binned calibration
 * error is a function of per-slot sums of w*value and of w, where w is the weight of the instance a
 * record belongs to. Computing all of them in one pass over (instance, slot, value) entries is what
 * keeps a thousand bootstrap resamples cheap.
 */

class GrowableArray<T extends Float64Array | Int32Array> {
  length = 0;
  constructor(public data: T) {}
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

/** Entries: entry e adds weights[instance[e]] * value[e] to the numerator and weights[instance[e]] * count[e] to the denominator of slot[e]. */
export interface SlotEntries {
  slotCount: number;
  instance: Int32Array;
  slot: Int32Array;
  value: Float64Array;
  /** How many records an entry stands for (1 until entries are merged). */
  count: Float64Array;
}

export class SlotEntriesBuilder {
  private slotCount = 0;
  private readonly instance = new GrowableArray(new Int32Array(1024));
  private readonly slot = new GrowableArray(new Int32Array(1024));
  private readonly value = new GrowableArray(new Float64Array(1024));

  newSlot(): number {
    return this.slotCount++;
  }

  add(slot: number, instance: number, value: number): void {
    this.slot.push(slot);
    this.instance.push(instance);
    this.value.push(value);
  }

  build(): SlotEntries {
    const value = this.value.done();
    return { slotCount: this.slotCount, instance: this.instance.done(), slot: this.slot.done(), value, count: new Float64Array(value.length).fill(1) };
  }
}

export interface SlotTotals {
  numerator: Float64Array;
  denominator: Float64Array;
}

/** Sums every slot for one weighting of the instances. */
export function sumSlots(entries: SlotEntries, weights: Float64Array): SlotTotals {
  const numerator = new Float64Array(entries.slotCount);
  const denominator = new Float64Array(entries.slotCount);
  const { instance, slot, value, count } = entries;
  let entry = 0;
  while (entry < instance.length) {
    // Runs of entries of one slot (all of them once merged) sum into locals: no store per entry.
    const target = slot[entry];
    let slotNumerator = 0;
    let slotDenominator = 0;
    for (; entry < instance.length && slot[entry] === target; entry++) {
      const weight = weights[instance[entry]];
      slotNumerator += weight * value[entry];
      slotDenominator += weight * count[entry];
    }
    numerator[target] += slotNumerator;
    denominator[target] += slotDenominator;
  }
  return { numerator, denominator };
}

/**
 * The same sums with one entry per (instance, slot), ordered by slot then instance: fewer entries,
 * one run per slot and ascending reads of the weights, for evaluating many resamples.
 */
export function mergeEntries(entries: SlotEntries, instanceCount: number): SlotEntries {
  const total = entries.instance.length;
  // Counting sort of the entries by instance.
  const start = new Int32Array(instanceCount + 1);
  for (let entry = 0; entry < total; entry++) start[entries.instance[entry] + 1]++;
  for (let instance = 0; instance < instanceCount; instance++) start[instance + 1] += start[instance];
  const next = start.slice(0, instanceCount);
  const byInstance = new Int32Array(total);
  for (let entry = 0; entry < total; entry++) byInstance[next[entries.instance[entry]]++] = entry;

  const instance = new GrowableArray(new Int32Array(1024));
  const slot = new GrowableArray(new Int32Array(1024));
  const value = new GrowableArray(new Float64Array(1024));
  const count = new GrowableArray(new Float64Array(1024));
  const slotValue = new Float64Array(entries.slotCount);
  const slotCount = new Float64Array(entries.slotCount);
  const touched: number[] = [];
  for (let current = 0; current < instanceCount; current++) {
    for (let position = start[current]; position < start[current + 1]; position++) {
      const entry = byInstance[position];
      const target = entries.slot[entry];
      if (slotCount[target] === 0) touched.push(target);
      slotValue[target] += entries.value[entry];
      slotCount[target] += entries.count[entry];
    }
    for (const target of touched) {
      instance.push(current);
      slot.push(target);
      value.push(slotValue[target]);
      count.push(slotCount[target]);
      slotValue[target] = 0;
      slotCount[target] = 0;
    }
    touched.length = 0;
  }
  return orderBySlot({ slotCount: entries.slotCount, instance: instance.done(), slot: slot.done(), value: value.done(), count: count.done() });
}

/** Counting sort by slot; stable, so instances stay ascending within a slot. */
function orderBySlot(entries: SlotEntries): SlotEntries {
  const total = entries.slot.length;
  const next = new Int32Array(entries.slotCount + 1);
  for (let entry = 0; entry < total; entry++) next[entries.slot[entry] + 1]++;
  for (let slot = 0; slot < entries.slotCount; slot++) next[slot + 1] += next[slot];
  const sorted: SlotEntries = {
    slotCount: entries.slotCount,
    instance: new Int32Array(total),
    slot: new Int32Array(total),
    value: new Float64Array(total),
    count: new Float64Array(total),
  };
  for (let entry = 0; entry < total; entry++) {
    const position = next[entries.slot[entry]]++;
    sorted.instance[position] = entries.instance[entry];
    sorted.slot[position] = entries.slot[entry];
    sorted.value[position] = entries.value[entry];
    sorted.count[position] = entries.count[entry];
  }
  return sorted;
}
