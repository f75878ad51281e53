/**
 * A small seeded generator (xoshiro128**, seeded through splitmix32) so that every bootstrap is
 * reproducible from its seed on any machine and Node version; Math.random cannot be seeded.
 */
export class Random {
  // The state lives in a typed array: 32-bit values in object fields would be boxed on every step. The step is written out again in the hot loops below (fill, addPoisson, addUniform) to keep the state in locals; tests hold them to nextUint32.
  private readonly state = new Int32Array(4);

  constructor(seed: number) {
    let x = seed >>> 0;
    const splitmix32 = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    // Stryker disable next-line EqualityOperator: `<=` writes state[4], past its end: dropped (the extra splitmix32 step changes only x, unused after)
    for (let index = 0; index < 4; index++) this.state[index] = splitmix32();
  }

  /** Next unsigned 32-bit integer. */
  nextUint32(): number {
    const s = this.state;
    const result = Math.imul(rotateLeft(Math.imul(s[1], 5), 7), 9);
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotateLeft(s[3], 11);
    return result >>> 0;
  }

  /** Fills the first `count` entries of `out` with what as many nextUint32() calls would give, with the state in locals. */
  fill(out: Uint32Array, count: number = out.length): void {
    const state = this.state;
    let s0 = state[0];
    let s1 = state[1];
    let s2 = state[2];
    let s3 = state[3];
    for (let index = 0; index < count; index++) {
      out[index] = Math.imul(rotateLeft(Math.imul(s1, 5), 7), 9);
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotateLeft(s3, 11);
    }
    state[0] = s0;
    state[1] = s1;
    state[2] = s2;
    state[3] = s3;
  }

  /**
   * Poisson draws into counts[0..cells), one 32-bit uniform each (as sampler.drawFor(u) for the
   * uniforms fill() would give), with the state in locals: twice as fast as filling and drawing
   * apart. Returns their sum.
   */
  addPoisson(sampler: PoissonSampler, counts: Float64Array, cells: number): number {
    const { scaledCumulative, guide, guideShift } = sampler;
    const state = this.state;
    let s0 = state[0];
    let s1 = state[1];
    let s2 = state[2];
    let s3 = state[3];
    let drawn = 0;
    for (let cell = 0; cell < cells; cell++) {
      const u = Math.imul(rotateLeft(Math.imul(s1, 5), 7), 9) >>> 0;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotateLeft(s3, 11);
      let k = guide[u >>> guideShift];
      while (scaledCumulative[k] <= u) k++;
      counts[cell] = k;
      drawn += k;
    }
    state[0] = s0;
    state[1] = s1;
    state[2] = s2;
    state[3] = s3;
    return drawn;
  }

  /**
   * Adds 1 to `count` uniform cells of `counts` (what `count` calls of counts[nextBelow(n, threshold)]++
   * would), with the state in locals.
   */
  addUniform(counts: Float64Array, count: number, n: number, threshold: number): void {
    const state = this.state;
    let s0 = state[0];
    let s1 = state[1];
    let s2 = state[2];
    let s3 = state[3];
    for (let added = 0; added < count;) {
      const product = (Math.imul(rotateLeft(Math.imul(s1, 5), 7), 9) >>> 0) * n; // exact: below 2^53
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotateLeft(s3, 11);
      const index = Math.floor(product * 2.3283064365386963e-10); // / 2^32
      if (product - index * 4294967296 < threshold) continue; // rejected: draw again
      counts[index]++;
      added++;
    }
    state[0] = s0;
    state[1] = s1;
    state[2] = s2;
    state[3] = s3;
  }

  /** Uniform in [0, 1). */
  nextFloat(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n), without bias (Lemire's multiply-and-reject), for n up to 2^21. */
  nextBelow(n: number, threshold: number = rejectionThreshold(n)): number {
    for (;;) {
      const product = this.nextUint32() * n; // exact: below 2^53
      const index = Math.floor(product * 2.3283064365386963e-10); // / 2^32
      if (product - index * 4294967296 >= threshold) return index;
    }
  }
}

/** Low parts below this are rejected so that every result of nextBelow(n) is equally likely. */
export function rejectionThreshold(n: number): number {
  // Stryker disable next-line ArithmeticOperator: `(2^32 + n) % n` is 2^32 mod n as well (exact in doubles); `*` is killed
  return (4294967296 - n) % n;
}

function rotateLeft(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** A 32-bit FNV-1a hash of text mixed into a seed: independent, stable streams per scope name. */
export function deriveSeed(seed: number, label: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let index = 0; index < label.length; index++) {
    hash ^= label.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** log(k!), summed exactly up to the table's size. */
function logFactorials(size: number): Float64Array {
  const table = new Float64Array(size + 1);
  // Stryker disable next-line EqualityOperator: `<` leaves log(size!) at 0, read only for F's entry at `last`, which is set to Infinity
  for (let k = 1; k <= size; k++) table[k] = table[k - 1] + Math.log(k);
  return table;
}

/**
 * Poisson(mean) draws by inversion of the cumulative distribution with a guide table (Chen and Asau,
 * 1974): one 32-bit uniform u and about one comparison per draw, the smallest k with F(k) > u / 2^32.
 * The table stops where the remaining tail is below 1e-300, so the draws follow the distribution to
 * double precision. F is kept times 2^32 (exact: a power of two) so that u is compared as it comes.
 */
export class PoissonSampler {
  readonly scaledCumulative: Float64Array;
  /** Per slot of the top GUIDE_BITS bits of u: the smallest k any u in the slot can give. */
  readonly guide: Int32Array;
  readonly guideShift: number;

  constructor(readonly mean: number) {
    const last = Math.ceil(mean + 40 * Math.sqrt(mean) + 40);
    const logFactorial = logFactorials(last);
    this.scaledCumulative = new Float64Array(last + 1);
    let sum = 0;
    // Stryker disable next-line EqualityOperator: `<` skips F's entry at `last`, which is set to Infinity below
    for (let k = 0; k <= last; k++) {
      sum += mean > 0 ? Math.exp(-mean + k * Math.log(mean) - logFactorial[k]) : k === 0 ? 1 : 0;
      this.scaledCumulative[k] = sum * 4294967296;
    }
    this.scaledCumulative[last] = Infinity; // every u stops by the last entry
    const guideBits = Math.ceil(Math.log2(last + 1)) + 1; // about two slots per k: about one comparison a draw
    this.guideShift = 32 - guideBits;
    this.guide = new Int32Array(2 ** guideBits);
    let k = 0;
    // Stryker disable next-line EqualityOperator: `<=` writes guide[length], past its end: dropped; `>=` is killed
    for (let slot = 0; slot < this.guide.length; slot++) {
      while (this.scaledCumulative[k] <= slot * 2 ** this.guideShift) k++;
      this.guide[slot] = k;
    }
  }

  /** The draw for the 32-bit uniform `u`. */
  drawFor(u: number): number {
    let k = this.guide[u >>> this.guideShift];
    while (this.scaledCumulative[k] <= u) k++;
    return k;
  }

  draw(random: Random): number {
    return this.drawFor(random.nextUint32());
  }
}
