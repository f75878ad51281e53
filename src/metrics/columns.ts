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

/** A copy of `array` in a new one of `size` entries (at least as many), the new entries set to `fill`. */
export function grown<T extends Float64Array | Int32Array | Uint16Array | Uint8Array>(array: T, size: number, fill = 0): T {
  const larger = new (array.constructor as new (size: number) => T)(size);
  larger.set(array);
  if (fill !== 0) larger.fill(fill, array.length);
  return larger;
}
