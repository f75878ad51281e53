/**
 * A small seeded generator (xoshiro128**, seeded through splitmix32) so that every bootstrap is
 * reproducible from its seed on any machine and Node version; Math.random cannot be seeded.
 */
export class Random {
  // The state lives in a typed array: 32-bit values in object fields would be boxed on every step.
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
  for (let k = 1; k <= size; k++) table[k] = table[k - 1] + Math.log(k);
  return table;
}

/**
 * Poisson(mean) draws by inversion of the cumulative distribution with a guide table (Chen and Asau,
 * 1974): one uniform and about one comparison per draw. The table stops where the remaining tail is
 * below 1e-300, so the draws follow the distribution to double precision.
 */
export class PoissonSampler {
  private readonly cumulative: Float64Array;
  private readonly guide: Int32Array;

  constructor(readonly mean: number) {
    const last = Math.ceil(mean + 40 * Math.sqrt(mean) + 40);
    const logFactorial = logFactorials(last);
    this.cumulative = new Float64Array(last + 1);
    let sum = 0;
    for (let k = 0; k <= last; k++) {
      sum += mean > 0 ? Math.exp(-mean + k * Math.log(mean) - logFactorial[k]) : k === 0 ? 1 : 0;
      this.cumulative[k] = sum;
    }
    this.cumulative[last] = Infinity; // every uniform in [0, 1) stops by the last entry
    this.guide = new Int32Array(last + 1);
    let k = 0;
    for (let slot = 0; slot <= last; slot++) {
      while (this.cumulative[k] <= slot / (last + 1)) k++;
      this.guide[slot] = k;
    }
  }

  draw(random: Random): number {
    const u = random.nextFloat();
    let k = this.guide[Math.floor(u * this.guide.length)];
    while (this.cumulative[k] <= u) k++;
    return k;
  }
}
