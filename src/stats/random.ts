/**
 * A small seeded generator (xoshiro128**, seeded through splitmix32) so that every bootstrap is
 * reproducible from its seed on any machine and Node version; Math.random cannot be seeded.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let state = seed >>> 0;
    const splitmix32 = (): number => {
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = splitmix32();
    this.b = splitmix32();
    this.c = splitmix32();
    this.d = splitmix32();
  }

  /** Next unsigned 32-bit integer. */
  nextUint32(): number {
    const result = Math.imul(rotateLeft(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotateLeft(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  nextFloat(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n), without bias (Lemire's multiply-and-reject), for n up to 2^21. */
  nextBelow(n: number): number {
    for (;;) {
      const product = this.nextUint32() * n; // exact: below 2^53
      const low = product % 4294967296;
      if (low >= n || low >= (4294967296 - n) % n) return Math.floor(product / 4294967296);
    }
  }
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
