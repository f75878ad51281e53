/** A typed column that grows as rows are added: the column store's building block (absent numbers are its fill value). */
export class GrowableColumn<T extends Float64Array | Int32Array | Uint8Array> {
  data: T;
  constructor(
    private readonly make: (size: number) => T,
    private readonly fill: number,
  ) {
    this.data = make(1024);
    this.data.fill(fill);
  }
  /** Room for `length` entries (doubling: a column filled one entry at a time is copied a few times only). */
  reserve(length: number): void {
    if (length > this.data.length) this.data = grown(this.data, Math.max(length, this.data.length * 2), this.fill);
  }
  set(index: number, value: number): void {
    this.reserve(index + 1);
    this.data[index] = value;
  }
  /** The value at `index`, the fill value where nothing was set yet. */
  get(index: number): number {
    return index < this.data.length ? this.data[index] : this.fill;
  }
  /** The first `length` entries (a view: the column is done); a column that started late reads as its fill value before that. */
  trimmed(length: number): T {
    this.reserve(length);
    return this.data.subarray(0, length) as T;
  }
}

export const float64 = (size: number): Float64Array => new Float64Array(size);
export const int32 = (size: number): Int32Array => new Int32Array(size);

type TypedColumn = Float64Array | Int32Array | Uint16Array | Uint8Array;

/** A copy of `array` in a new one of `size` entries (at least as many), the new entries set to `fill`. */
export function grown<T extends TypedColumn>(array: T, size: number, fill = 0): T {
  const larger = new (array.constructor as new (size: number) => T)(size);
  larger.set(array);
  if (fill !== 0) larger.fill(fill, array.length);
  return larger;
}

/**
 * `grown` into shared memory, the new entries 0: a worker thread sent the column reads this memory
 * instead of a copy of it (pipeline/metrics-thread.ts).
 */
export function grownShared<T extends TypedColumn>(array: T, size: number): T {
  const Type = array.constructor as { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number };
  const larger = new Type(new SharedArrayBuffer(size * Type.BYTES_PER_ELEMENT));
  larger.set(array);
  return larger;
}

/**
 * The per-row columns being filled, grown together (one capacity check a record). `add` writes every
 * column of every row, so room made ahead is never read before it is written (and is not filled). They
 * lie in shared memory: a thread computing the run's metrics reads them without a copy (metrics/table.ts).
 */
export class RowColumns {
  capacity = 0;
  scenarioOf = new Int32Array(0);
  instanceOf = new Int32Array(0);
  kind = new Uint8Array(0);
  failed = new Uint8Array(0);
  correct = new Float64Array(0);
  judge = new Uint8Array(0);
  human = new Float64Array(0);
  judgeProbes = new Uint16Array(0);
  judgeCostUsd = new Float64Array(0);
  confidence = new Float64Array(0);
  latencyMs = new Float64Array(0);
  outputTokens = new Float64Array(0);
  costUsd = new Float64Array(0);
  toxicity = new Float64Array(0);

  constructor() {
    this.resize(1024);
  }

  /** Room for row `row`. */
  reserve(row: number): void {
    if (row >= this.capacity) this.resize(this.capacity * 2);
  }

  /** Room for `capacity` rows in all. */
  resize(capacity: number): void {
    if (capacity <= this.capacity) return;
    this.scenarioOf = grownShared(this.scenarioOf, capacity);
    this.instanceOf = grownShared(this.instanceOf, capacity);
    this.kind = grownShared(this.kind, capacity);
    this.failed = grownShared(this.failed, capacity);
    this.correct = grownShared(this.correct, capacity);
    this.judge = grownShared(this.judge, capacity);
    this.human = grownShared(this.human, capacity);
    this.judgeProbes = grownShared(this.judgeProbes, capacity);
    this.judgeCostUsd = grownShared(this.judgeCostUsd, capacity);
    this.confidence = grownShared(this.confidence, capacity);
    this.latencyMs = grownShared(this.latencyMs, capacity);
    this.outputTokens = grownShared(this.outputTokens, capacity);
    this.costUsd = grownShared(this.costUsd, capacity);
    this.toxicity = grownShared(this.toxicity, capacity);
    this.capacity = capacity;
  }
}
